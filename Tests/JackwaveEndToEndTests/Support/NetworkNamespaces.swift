import Foundation
import JackwaveTestSupport

/// Two machines in one box: two network namespaces joined by a veth pair, each with a
/// private `/dev/shm`, so that each runs JACK servers of its own as a second computer would.
///
/// Why a private `/dev/shm`: JACK2 keeps its server list (`jack-shm-registry`, at most 8
/// servers for the whole machine), its sockets and its shared memory there, and a network
/// namespace alone does not separate files. Each machine is a holder process started as
/// `ip netns exec NS unshare --mount --propagation private sh -c 'mount -t tmpfs … /dev/shm;
/// exec sleep …'`: a mount namespace of its own with an empty tmpfs on `/dev/shm`. Everything
/// that runs "on" the machine is started through `nsenter --target HOLDER --mount --net`
/// (which execs: the pid the test holds is the program's own), so it sees that machine's
/// JACK servers and only them, and takes no slot of the host's JACK server list. The rest of
/// the file system (the build, the test's temporary directory) is the host's: a recording
/// made on a machine is read by the test as usual. Distinct server names alone would not do:
/// both machines would then share one list of 8 with every other test run on the host.
///
/// Addresses: 192.0.2.1 (local) and 192.0.2.2 (remote) on the veth pair, inside the
/// namespaces only; nothing is sent anywhere else. Names (`jwnet-PID-RANDOM-l|r`, veth
/// `jwRANDOMl|r`) are unique per pair, so parallel and repeated runs never collide, and a
/// pair whose test process died (killed run) is swept by the next pair that starts.
final class MachinePair: @unchecked Sendable {
    let local: TestMachine
    let remote: TestMachine
    private var stopped = false

    init() throws {
        Self.sweepStale()
        let tag = String(format: "%08x", UInt32.random(in: 0...UInt32.max))
        let base = "jwnet-\(getpid())-\(tag)"
        let (vethLocal, vethRemote) = ("jw\(tag)l", "jw\(tag)r")
        var made: [String] = []
        do {
            for side in ["l", "r"] {
                try Self.ip(["netns", "add", "\(base)-\(side)"])
                made.append("\(base)-\(side)")
            }
            try Self.ip(["link", "add", vethLocal, "type", "veth", "peer", "name", vethRemote])
            for (dev, ns, address) in [(vethLocal, "\(base)-l", TestMachine.localAddress),
                                       (vethRemote, "\(base)-r", TestMachine.remoteAddress)] {
                try Self.ip(["link", "set", dev, "netns", ns])
                try Self.ip(["-n", ns, "addr", "add", "\(address)/24", "dev", dev])
                try Self.ip(["-n", ns, "link", "set", "lo", "up"])
                try Self.ip(["-n", ns, "link", "set", dev, "up"])
                // netjack2's discovery is multicast: route it over the pair, not a default route.
                try Self.ip(["-n", ns, "route", "add", "224.0.0.0/4", "dev", dev])
            }
            let l = try TestMachine(namespace: "\(base)-l", address: TestMachine.localAddress)
            do {
                remote = try TestMachine(namespace: "\(base)-r", address: TestMachine.remoteAddress)
            } catch {
                l.stop()
                throw error
            }
            local = l
        } catch {
            for ns in made { _ = try? Self.ip(["netns", "delete", ns]) }
            throw error
        }
    }

    /// Stops everything either machine runs (by pid), then removes the namespaces (and
    /// with them the veth pair). Safe to call twice; `deinit` calls it too, so a test that
    /// fails half-way leaves nothing behind.
    func stop() {
        guard !stopped else { return }
        stopped = true
        remote.stop()
        local.stop()
    }

    deinit { stop() }

    /// `ip ARGS`, which must succeed.
    @discardableResult
    static func ip(_ arguments: [String]) throws -> String {
        let out = try Run.tool("/usr/sbin/ip", arguments, server: nil, timeout: 20)
        guard out.status == 0 else { throw TestFailure("ip \(arguments.joined(separator: " ")): \(out.stderr)") }
        return out.stdout
    }

    /// Removes the namespaces of pairs whose test process is gone: their processes are
    /// ended by pid (`ip netns pids`), then the namespace is deleted.
    static func sweepStale() {
        guard let list = try? ip(["netns", "list"]) else { return }
        for line in list.split(separator: "\n") {
            let name = String(line.split(separator: " ").first ?? "")
            let parts = name.split(separator: "-")
            guard parts.count == 4, parts[0] == "jwnet", let owner = Int32(parts[1]),
                  owner != getpid(), kill(owner, 0) != 0, errno == ESRCH else { continue }
            TestMachine.endProcesses(inNamespace: name)
            _ = try? ip(["netns", "delete", name])
        }
    }
}

/// One machine of a `MachinePair`: a network namespace, its address, and the holder process
/// whose mount namespace (private `/dev/shm`) every program on the machine shares.
final class TestMachine: @unchecked Sendable {
    static let localAddress = "192.0.2.1"
    static let remoteAddress = "192.0.2.2"

    let namespace: String
    let address: String
    private let holder: Run.Running
    /// Everything started on this machine, stopped in reverse order by `stop`.
    private var started: [Run.Running] = []
    private let lock = NSLock()

    init(namespace: String, address: String) throws {
        self.namespace = namespace
        self.address = address
        let script = "mount -t tmpfs -o size=256m,mode=1777 jwshm /dev/shm && echo ready && exec sleep 2147483647"
        holder = try Run.start("/usr/sbin/ip", ["netns", "exec", namespace, "/usr/bin/unshare", "--mount",
                                                "--propagation", "private", "/bin/sh", "-c", script], server: nil)
        guard waitUntil(timeout: 20, { holder.stdoutSoFar.contains("ready") || !holder.isRunning }),
              holder.isRunning else {
            let out = holder.finish(timeout: 1)
            _ = try? MachinePair.ip(["netns", "delete", namespace])
            throw TestFailure("machine \(namespace) did not start: \(out.stderr)")
        }
    }

    /// The command line that runs `path` on this machine.
    func command(_ path: String, _ arguments: [String]) -> (String, [String]) {
        ("/usr/bin/nsenter", ["--target", "\(holder.pid)", "--mount", "--net", "--", path] + arguments)
    }

    /// Starts `path` on this machine with `server` as its JACK server; `stop` ends it.
    func start(_ path: String, _ arguments: [String], server: String?, environment: [String: String] = [:]) throws -> Run.Running {
        let (tool, args) = command(path, arguments)
        let running = try Run.start(tool, args, server: server, environment: environment)
        lock.withLock { started.append(running) }
        return running
    }

    /// Runs `path` on this machine to completion.
    func tool(_ path: String, _ arguments: [String], server: String?, timeout: Double = 60) throws -> Run.Output {
        let (tool, args) = command(path, arguments)
        return try Run.tool(tool, args, server: server, timeout: timeout)
    }

    /// Runs the built `jackwave` on this machine to completion.
    func jackwave(_ arguments: [String], server: String, timeout: Double = 60) throws -> Run.Output {
        try tool(Run.jackwave, arguments, server: server, timeout: timeout)
    }

    /// The audio ports of `server` on this machine (`jack_lsp`), or [] while it cannot be asked.
    func ports(server: String) -> [String] {
        guard let out = try? tool("/usr/bin/jack_lsp", [], server: server, timeout: 10), out.status == 0 else { return [] }
        return out.stdout.split(separator: "\n").map(String.init)
    }

    /// Waits until `server` on this machine has a port named `name`.
    func waitForPort(_ name: String, server: String, timeout: Double = 30) -> Bool {
        waitUntil(timeout: timeout, interval: 0.1) { ports(server: server).contains(name) }
    }

    /// `jack_connect a b` on this machine.
    func connect(_ a: String, _ b: String, server: String) throws {
        let out = try tool("/usr/bin/jack_connect", [a, b], server: server, timeout: 10)
        guard out.status == 0 else { throw TestFailure("jack_connect \(a) \(b) on \(namespace): \(out.stderr)") }
    }

    /// Stops one program started here: SIGTERM, then SIGKILL after `grace` seconds.
    static func end(_ process: Run.Running, grace: Double = 5) {
        process.signal(SIGTERM)
        _ = process.finish(timeout: grace)
    }

    /// Stops what was started here (newest first), anything else left in the namespace (by
    /// the pids `ip netns pids` lists), the holder, and deletes the namespace.
    func stop() {
        let all = lock.withLock { () -> [Run.Running] in defer { started.removeAll() }; return started }
        for process in all.reversed() { Self.end(process) }
        Self.endProcesses(inNamespace: namespace)
        Self.end(holder, grace: 2)
        _ = try? MachinePair.ip(["netns", "delete", namespace])
    }

    /// SIGKILL to every process `ip netns pids NS` lists (what a dead test run left there).
    static func endProcesses(inNamespace namespace: String) {
        guard let pids = try? MachinePair.ip(["netns", "pids", namespace]) else { return }
        for pid in pids.split(separator: "\n").compactMap({ Int32($0) }) where pid != getpid() { kill(pid, SIGKILL) }
    }
}

/// A JACK server on one `TestMachine`: `jackd -n NAME -S` with the driver and its options
/// given (dummy, netone, net), stopped by its pid.
final class MachineJackServer: @unchecked Sendable {
    let machine: TestMachine
    let name: String
    let process: Run.Running

    /// Starts `jackd -n NAME -S -d DRIVER OPTIONS…` and, when `waitFor` is given, waits until
    /// that port exists (the dummy driver's `system:capture_1`; a network driver's ports
    /// exist only once its master answers, so its caller waits for them later).
    init(on machine: TestMachine, name: String, driver: [String], waitFor port: String? = "system:capture_1") throws {
        self.machine = machine
        self.name = name
        process = try machine.start("/usr/bin/jackd", ["-n", name, "-S", "-d"] + driver, server: nil)
        if let port {
            guard machine.waitForPort(port, server: name), process.isRunning else {
                throw TestFailure("jackd -n \(name) on \(machine.namespace) did not come up: \(process.stderrSoFar.suffix(300))")
            }
        }
    }

    /// A dummy server: the stand-in for a machine's sound card.
    static func dummy(on machine: TestMachine, name: String, rate: Int = 48000, period: Int = 256, ports: Int = 2) throws
        -> MachineJackServer {
        try MachineJackServer(on: machine, name: name, driver: ["dummy", "-r", "\(rate)", "-p", "\(period)",
                                                               "-C", "\(ports)", "-P", "\(ports)"])
    }

    /// Starts `jackwave-testsource CHANNELS NAME EXTRA…` on this server; returns once it is active.
    func startTestSource(channels: Int, name client: String = "src", extra: [String] = []) throws -> Run.Running {
        let source = try machine.start(Tools.testSource, ["\(channels)", client] + extra, server: name)
        guard waitUntil(timeout: 30, { source.stdoutSoFar.contains("ready") || !source.isRunning }), source.isRunning else {
            throw TestFailure("test source did not start on \(machine.namespace): \(source.stderrSoFar)")
        }
        return source
    }
}
