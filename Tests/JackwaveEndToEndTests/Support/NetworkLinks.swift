import Foundation
import JackwaveTestSupport

/// The network links between JACK servers that Debian ships, started between the two
/// machines of a `MachinePair` exactly as a user would start them (the commands are those of
/// docs/recording-across-machines.md). Each fixture owns its processes; `MachinePair.stop`
/// ends them by pid with everything else on the machines.
///
/// Every link here carries audio from the remote machine (the stage box) to the local one
/// (the recorder), where jackwave records the link's ports; `remoteSink` / `localSources`
/// say which ports those are.
protocol NetworkLink: AnyObject {
    /// The local server (where jackwave records) and the remote one (where the sound is).
    var localServer: String { get }
    var remoteServer: String { get }
    /// The remote ports whose audio arrives locally, in channel order.
    var remoteSinks: [String] { get }
    /// The local ports that carry it, as jackwave's `-p` takes them (a glob).
    var localSourcePattern: String { get }
}

/// netjack1: the remote server *is* the link (`jackd -d netone`, run by the local server's
/// clock through `jack_netsource`). Its `system:playback_N` arrive at the local
/// `netjack1:capture_N`; the local `netjack1:playback_N` come out of its `system:capture_N`.
final class Netjack1Link: NetworkLink {
    let remote: MachineJackServer
    let netsource: Run.Running
    let localServer: String
    let remoteServer = "stage"
    let channels: Int
    var remoteSinks: [String] { (1...channels).map { "system:playback_\($0)" } }
    let localSourcePattern = "netjack1:capture_*"

    /// `jackd -n stage -S -d netone -i N -o N -I 0 -O 0 -r 48000 -p 256` on the remote, then
    /// `jack_netsource -H 192.0.2.2 -i N -o N -I 0 -O 0 -n LATENCY -N netjack1` on the local server.
    init(pair: MachinePair, localServer: String, channels: Int = 2, latencyPeriods: Int = 2) throws {
        self.localServer = localServer
        self.channels = channels
        remote = try MachineJackServer(on: pair.remote, name: "stage",
                                       driver: ["netone", "-i", "\(channels)", "-o", "\(channels)", "-I", "0", "-O", "0",
                                                "-r", "48000", "-p", "256"], waitFor: nil)
        // The slave has no ports until its master (jack_netsource) has reached it.
        netsource = try pair.local.start("/usr/bin/jack_netsource",
                                         ["-H", pair.remote.address, "-i", "\(channels)", "-o", "\(channels)", "-I", "0",
                                          "-O", "0", "-n", "\(latencyPeriods)", "-N", "netjack1"], server: localServer)
        guard pair.local.waitForPort("netjack1:capture_\(channels)", server: localServer),
              pair.remote.waitForPort("system:playback_\(channels)", server: remoteServer) else {
            throw TestFailure("netjack1 did not link: \(netsource.stderrSoFar.suffix(300)) \(remote.process.stderrSoFar.suffix(300))")
        }
    }
}

/// netjack2: the local server loads the `netmanager` internal client (the master); the
/// remote runs `jackd -d net` (the slave, on the master's clock). The remote's
/// `system:playback_N` arrive at the local `stagebox:from_slave_N`.
final class Netjack2Link: NetworkLink {
    let remote: MachineJackServer
    let localServer: String
    let remoteServer = "stage"
    let channels: Int
    private let pair: MachinePair
    var remoteSinks: [String] { (1...channels).map { "system:playback_\($0)" } }
    let localSourcePattern = "stagebox:from_slave_*"

    /// `jack_load -i "-a 192.0.2.1" netmanager` on the local server, then on the remote
    /// `jackd -n stage -S -d net -a 192.0.2.1 -C N -P N -i 0 -o 0 -n stagebox -l LATENCY`.
    init(pair: MachinePair, localServer: String, channels: Int = 2, latencyPeriods: Int = 2) throws {
        self.pair = pair
        self.localServer = localServer
        self.channels = channels
        let load = try pair.local.tool("/usr/bin/jack_load", ["-i", "-a \(pair.local.address)", "netmanager"],
                                       server: localServer, timeout: 20)
        guard load.status == 0 else { throw TestFailure("jack_load netmanager: \(load.stdout)\(load.stderr)") }
        remote = try MachineJackServer(on: pair.remote, name: "stage",
                                       driver: ["net", "-a", pair.local.address, "-C", "\(channels)", "-P", "\(channels)",
                                                "-i", "0", "-o", "0", "-n", "stagebox", "-l", "\(latencyPeriods)"],
                                       waitFor: "system:playback_\(channels)")
        guard pair.local.waitForPort("stagebox:from_slave_\(channels)", server: localServer) else {
            throw TestFailure("netmanager made no ports for the slave: \(remote.process.stderrSoFar.suffix(300))")
        }
    }
}

/// JackTrip: a hub server on the local machine (`jacktrip -S`), a hub client on the remote.
/// The remote's `stagebox:send_N` arrive at the local `stage:receive_N` (the hub names its
/// client's ports by the client's `-K`).
///
/// 16-bit (`-b 16`), not 32: JackTrip 1.7.0's 32-bit mode is broken (docs: it sends the low
/// half of a `double` instead of a float, so the test pattern arrives as zeros and a tone as
/// noise). Every value of the test pattern is a multiple of 2^-14 in [-0.5, 0.5), exact in
/// 16 bits, so a 16-bit link is still checked sample for sample.
final class JackTripLink: NetworkLink {
    let remote: MachineJackServer
    let hub: Run.Running
    private(set) var client: Run.Running
    let localServer: String
    let remoteServer = "stage"
    let channels: Int
    let clientOptions: [String]
    private let pair: MachinePair
    var remoteSinks: [String] { (1...channels).map { "stagebox:send_\($0)" } }
    let localSourcePattern = "stage:receive_*"

    /// `jacktrip -S -b 16 -n N -p 5 -D -z -I 1 [HUB OPTIONS]` on the local server (hub, no
    /// auto-patching, zeros on underrun, statistics every second) and
    /// `jacktrip -C 192.0.2.1 -b 16 -n N -D -z -K stage -J stagebox` on a dummy remote server.
    init(pair: MachinePair, localServer: String, channels: Int = 2, hubOptions: [String] = [],
         clientOptions: [String] = []) throws {
        self.pair = pair
        self.localServer = localServer
        self.channels = channels
        self.clientOptions = clientOptions
        remote = try MachineJackServer.dummy(on: pair.remote, name: "stage")
        hub = try pair.local.start("/usr/bin/jacktrip", ["-S", "-b", "16", "-n", "\(channels)", "-p", "5", "-D", "-z",
                                                         "-I", "1"] + hubOptions, server: localServer)
        guard hub.waitForStdout("Waiting for client connections") else {
            throw TestFailure("the JackTrip hub did not start: \(hub.stdoutSoFar.suffix(300))")
        }
        client = try Self.startClient(pair: pair, channels: channels, options: clientOptions)
        try waitUntilLinked()
    }

    private static func startClient(pair: MachinePair, channels: Int, options: [String]) throws -> Run.Running {
        try pair.remote.start("/usr/bin/jacktrip", ["-C", pair.local.address, "-b", "16", "-n", "\(channels)", "-D", "-z",
                                                    "-K", "stage", "-J", "stagebox"] + options, server: "stage")
    }

    private func waitUntilLinked() throws {
        guard pair.local.waitForPort("stage:receive_\(channels)", server: localServer),
              pair.remote.waitForPort("stagebox:send_\(channels)", server: remoteServer) else {
            throw TestFailure("JackTrip did not link: \(client.stdoutSoFar.suffix(300))")
        }
    }

    /// Stops the remote client (its ports on the hub vanish) and starts it again.
    func restartClient(whileGone: () throws -> Void = {}) throws {
        TestMachine.end(client)
        guard waitUntil(timeout: 30, interval: 0.1, { !pair.local.ports(server: localServer).contains("stage:receive_1") }) else {
            throw TestFailure("the hub still has stage:receive_1 30 s after its client ended")
        }
        try whileGone()
        client = try Self.startClient(pair: pair, channels: channels, options: clientOptions)
        try waitUntilLinked()
    }

    /// The hub's cumulative count of packets lost (its `-I` lines: `prot: LOST/…`), by line.
    var lostPacketsByLine: [Int] { statistic(" prot: ") }

    /// The hub's cumulative count of buffer underruns (`recv: UNDERRUNS/…`), by line: a lost
    /// packet is one, and so is a packet that came too late (a loaded machine).
    var underrunsByLine: [Int] { statistic(" recv: ") }

    /// The hub's cumulative count of buffer overflows (`recv: …/OVERFLOWS`), by line: packets
    /// its jitter buffer dropped because too many had come (they show as skips).
    var overflowsByLine: [Int] { statistic(" recv: ", field: 1) }

    /// Field `field` of the slash-separated numbers after `label` on each statistics line.
    private func statistic(_ label: String, field: Int = 0) -> [Int] {
        hub.stdoutSoFar.split(separator: "\n").compactMap { line in
            guard line.contains(" prot: "), let range = line.range(of: label) else { return nil }
            let fields = line[range.upperBound...].prefix { $0 != " " }.split(separator: "/")
            return field < fields.count ? Int(fields[field]) : nil
        }
    }
}

/// zita-njbridge: `zita-j2n` on the remote sends, `zita-n2j` on the local server receives and
/// resamples to the local clock. The remote's `zj2n:in_N` arrive at the local `zn2j:out_N`.
final class ZitaLink: NetworkLink {
    let remote: MachineJackServer
    let sender: Run.Running
    let receiver: Run.Running
    let localServer: String
    let remoteServer = "stage"
    let channels: Int
    var remoteSinks: [String] { (1...channels).map { "zj2n:in_\($0)" } }
    let localSourcePattern = "zn2j:out_*"

    /// `zita-n2j --jname zn2j --chan 1,…,N --buff 40 192.0.2.1 30000` on the local server, then
    /// `zita-j2n --jname zj2n --chan N --float 192.0.2.1 30000` on a dummy remote server.
    init(pair: MachinePair, localServer: String, channels: Int = 2, remoteRate: Int = 48000) throws {
        self.localServer = localServer
        self.channels = channels
        remote = try MachineJackServer.dummy(on: pair.remote, name: "stage", rate: remoteRate)
        // 40 ms of buffering beyond the default 10: on a loaded 2-core machine the default
        // let late packets through as a resynchronisation (a gap) now and then.
        receiver = try pair.local.start("/usr/bin/zita-n2j", ["--jname", "zn2j", "--chan",
                                                              (1...channels).map(String.init).joined(separator: ","),
                                                              "--buff", "40", pair.local.address, "30000"], server: localServer)
        sender = try pair.remote.start("/usr/bin/zita-j2n", ["--jname", "zj2n", "--chan", "\(channels)", "--float",
                                                             pair.local.address, "30000"], server: "stage")
        guard pair.local.waitForPort("zn2j:out_\(channels)", server: localServer),
              pair.remote.waitForPort("zj2n:in_\(channels)", server: "stage") else {
            throw TestFailure("zita-njbridge did not start: \(receiver.stderrSoFar.suffix(200)) \(sender.stderrSoFar.suffix(200))")
        }
    }
}

extension Run.Running {
    /// Waits until stdout contains `text`, while the program runs.
    func waitForStdout(_ text: String, timeout: Double = 30) -> Bool {
        waitUntil(timeout: timeout) { stdoutSoFar.contains(text) || !isRunning } && stdoutSoFar.contains(text)
    }
}
