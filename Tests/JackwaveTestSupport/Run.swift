import Foundation

/// Running the built `jackwave` binary and other tools, as a user would.
public enum Run {
    /// What a finished process left behind.
    public struct Output {
        public let status: Int32
        public let stdout: String
        public let stderr: String

        public init(status: Int32, stdout: String, stderr: String) {
            self.status = status
            self.stdout = stdout
            self.stderr = stderr
        }
    }

    /// The `jackwave` executable next to the test bundle (same build configuration).
    public static var jackwave: String {
        if let override = ProcessInfo.processInfo.environment["JACKWAVE_BINARY"] { return override }
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("jackwave").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build/debug/jackwave").path
    }

    /// Runs `jackwave` to completion (killed after `timeout` seconds).
    public static func jackwave(_ arguments: [String], server: String?, timeout: Double = 60,
                         environment: [String: String] = [:], autostartGuard: Bool = true) throws -> Output {
        try tool(jackwave, arguments, server: server, timeout: timeout, environment: environment,
                 autostartGuard: autostartGuard)
    }

    /// Runs any program to completion with the JACK server chosen by name.
    public static func tool(_ path: String, _ arguments: [String], server: String?, timeout: Double = 60,
                     environment: [String: String] = [:], autostartGuard: Bool = true) throws -> Output {
        let p = try start(path, arguments, server: server, environment: environment, autostartGuard: autostartGuard)
        return p.finish(timeout: timeout)
    }

    /// Starts a program in the background.
    ///
    /// `autostartGuard` sets `JACK_NO_START_SERVER`: without it, a JACK tool run before its
    /// server is up starts a server of its own under the same name (libjack's autostart),
    /// and the real one then fails to start. Pass false to see what the program itself does
    /// when no server runs (the variable is then removed, even if the caller's environment has it).
    public static func start(_ path: String, _ arguments: [String], server: String?,
                      environment: [String: String] = [:], autostartGuard: Bool = true) throws -> Running {
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "JACK_DEFAULT_SERVER")
        if let server {
            env.merge(clientVariables(server: server, libraryPath: env["LD_LIBRARY_PATH"])) { $1 }
        }
        env["JACK_NO_AUDIO_RESERVATION"] = "1"
        if autostartGuard { env["JACK_NO_START_SERVER"] = "1" } else { env.removeValue(forKey: "JACK_NO_START_SERVER") }
        for (k, v) in environment { env[k] = v }
        return try Running(path: path, arguments: arguments, environment: env)
    }

    /// The variables that point a JACK client at `server` (added to an environment without
    /// `JACK_DEFAULT_SERVER`). A PipeWire server is reached as `pw-jack` runs a client:
    /// PipeWire's libjack first on the library path (before `libraryPath`), PipeWire's
    /// socket in the server's runtime directory; a jackd one by `JACK_DEFAULT_SERVER`.
    public static func clientVariables(server: String, libraryPath: String? = nil) -> [String: String] {
        guard let runtime = PipeWireServer.runtimeDirectory(ofServer: server) else { return ["JACK_DEFAULT_SERVER": server] }
        var variables = ["XDG_RUNTIME_DIR": runtime, "PIPEWIRE_RUNTIME_DIR": runtime]
        if let lib = PipeWireServer.libjackDirectory {
            variables["LD_LIBRARY_PATH"] = ([lib] + (libraryPath.map { [$0] } ?? [])).joined(separator: ":")
        }
        return variables
    }

    /// A program started in the background; its output is collected as it comes.
    ///
    /// Spawned with `posix_spawn` and an empty signal mask rather than Foundation's
    /// `Process`: test threads are Dispatch workers, which block SIGINT and SIGTERM, and a
    /// child would inherit that mask and ignore the very signals the tests send.
    public final class Running: @unchecked Sendable {
        public let pid: pid_t
        private let lock = NSLock()
        private var outData = Data(), errData = Data()
        private let group = DispatchGroup()
        private var exitStatus: Int32?

        public init(path: String, arguments: [String], environment: [String: String]) throws {
            var outPipe: [Int32] = [0, 0], errPipe: [Int32] = [0, 0]
            guard pipe(&outPipe) == 0, pipe(&errPipe) == 0 else { throw TestFailure("pipe failed") }
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
            posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
            for fd in [outPipe[0], outPipe[1], errPipe[0], errPipe[1]] { posix_spawn_file_actions_addclose(&actions, fd) }
            var attributes = posix_spawnattr_t()
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            var empty = sigset_t(), defaults = sigset_t()
            sigemptyset(&empty)
            sigemptyset(&defaults)
            for sig in [SIGINT, SIGTERM, SIGPIPE, SIGXFSZ] { sigaddset(&defaults, sig) }
            posix_spawnattr_setsigmask(&attributes, &empty)
            posix_spawnattr_setsigdefault(&attributes, &defaults)
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
            let argv = ([path] + arguments).map { strdup($0) } + [nil]
            let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
            defer { (argv + envp).forEach { free($0) } }
            var child: pid_t = 0
            let rc = posix_spawn(&child, path, &actions, &attributes, argv, envp)
            close(outPipe[1])
            close(errPipe[1])
            guard rc == 0 else {
                close(outPipe[0]); close(errPipe[0])
                throw TestFailure("cannot start \(path): \(String(cString: strerror(rc)))")
            }
            pid = child
            collect(fd: outPipe[0], isOut: true)
            collect(fd: errPipe[0], isOut: false)
        }

        private func collect(fd: Int32, isOut: Bool) {
            group.enter()
            Thread.detachNewThread { [self] in
                var buffer = [UInt8](repeating: 0, count: 65536)
                while true {
                    let n = read(fd, &buffer, buffer.count)
                    if n < 0 && errno == EINTR { continue }
                    if n <= 0 { break }
                    lock.lock()
                    if isOut { outData.append(contentsOf: buffer[0..<n]) } else { errData.append(contentsOf: buffer[0..<n]) }
                    lock.unlock()
                }
                close(fd)
                group.leave()
            }
        }

        /// Whether the program is still running.
        public var isRunning: Bool {
            lock.lock(); defer { lock.unlock() }
            if exitStatus != nil { return false }
            var status: Int32 = 0
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid { exitStatus = Running.decode(status); return false }
            return r == 0
        }

        /// Exit code, or 128 + signal number for a program a signal ended.
        private static func decode(_ status: Int32) -> Int32 {
            let signal = status & 0x7f
            return signal == 0 ? (status >> 8) & 0xff : 128 + signal
        }

        /// Stderr so far.
        public var stderrSoFar: String {
            lock.lock(); defer { lock.unlock() }
            return String(decoding: errData, as: UTF8.self)
        }

        /// Stdout so far.
        public var stdoutSoFar: String {
            lock.lock(); defer { lock.unlock() }
            return String(decoding: outData, as: UTF8.self)
        }

        /// Waits until stderr contains `text` (true) or `timeout` passes (false). The bound
        /// is generous: a loaded machine may take seconds to start a JACK client.
        public func waitForStderr(_ text: String, timeout: Double = 30) -> Bool {
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline {
                if stderrSoFar.contains(text) { return true }
                if !isRunning { return stderrSoFar.contains(text) }
                usleep(20_000)
            }
            return false
        }

        /// Sends a signal.
        public func signal(_ sig: Int32) { if isRunning { kill(pid, sig) } }

        /// Waits for the end (SIGKILL after `timeout` s) and returns everything it printed.
        public func finish(timeout: Double = 60) -> Output {
            let deadline = Date().addingTimeInterval(timeout)
            while isRunning && Date() < deadline { usleep(10_000) }
            if isRunning { kill(pid, SIGKILL) }
            let killDeadline = Date().addingTimeInterval(10)
            while isRunning && Date() < killDeadline { usleep(10_000) }
            // Bounded: a grandchild that outlives the process (a pipeline's other end) can
            // hold its pipes open; what was read by then is returned.
            _ = group.wait(timeout: .now() + 10)
            lock.lock(); defer { lock.unlock() }
            return Output(status: exitStatus ?? -1,
                          stdout: String(decoding: outData, as: UTF8.self),
                          stderr: String(decoding: errData, as: UTF8.self))
        }
    }
}

/// Polls `condition` until it holds (true) or `timeout` seconds pass (false): how a test
/// waits for what it needs (a port, a frame count, a thread) instead of guessing a time.
public func waitUntil(timeout: Double = 30, interval: Double = 0.02, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
        if try condition() { return true }
        if Date() >= deadline { return false }
        usleep(UInt32(interval * 1e6))
    }
}

/// A fresh directory for one test's files.
public func temporaryDirectory() -> String {
    let path = NSTemporaryDirectory() + "jackwave-test-\(UUID().uuidString)"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}
