import Foundation

/// Running the built `jackwave` binary and other tools, as a user would.
enum Run {
    /// What a finished process left behind.
    struct Output {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// The `jackwave` executable next to the test bundle (same build configuration).
    static var jackwave: String {
        if let override = ProcessInfo.processInfo.environment["JACKWAVE_BINARY"] { return override }
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("jackwave").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(".build/debug/jackwave").path
    }

    /// Runs `jackwave` to completion (killed after `timeout` seconds).
    static func jackwave(_ arguments: [String], server: String?, timeout: Double = 60,
                         environment: [String: String] = [:]) throws -> Output {
        try tool(jackwave, arguments, server: server, timeout: timeout, environment: environment)
    }

    /// Runs any program to completion with the JACK server chosen by name.
    static func tool(_ path: String, _ arguments: [String], server: String?, timeout: Double = 60,
                     environment: [String: String] = [:]) throws -> Output {
        let p = try start(path, arguments, server: server, environment: environment)
        return p.finish(timeout: timeout)
    }

    /// Starts a program in the background.
    static func start(_ path: String, _ arguments: [String], server: String?,
                      environment: [String: String] = [:]) throws -> Running {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        if let server { env["JACK_DEFAULT_SERVER"] = server }
        env["JACK_NO_AUDIO_RESERVATION"] = "1"
        for (k, v) in environment { env[k] = v }
        p.environment = env
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        let running = Running(process: p, out: out, err: err)
        try p.run()
        running.collect()
        return running
    }

    /// A program started in the background; its output is collected as it comes.
    final class Running: @unchecked Sendable {
        let process: Process
        private let out: Pipe, err: Pipe
        private let lock = NSLock()
        private var outData = Data(), errData = Data()
        private let group = DispatchGroup()

        init(process: Process, out: Pipe, err: Pipe) {
            self.process = process
            self.out = out
            self.err = err
        }

        fileprivate func collect() {
            for (pipe, isOut) in [(out, true), (err, false)] {
                group.enter()
                DispatchQueue.global().async { [self] in
                    while true {
                        let chunk = pipe.fileHandleForReading.availableData
                        if chunk.isEmpty { break }
                        lock.lock()
                        if isOut { outData.append(chunk) } else { errData.append(chunk) }
                        lock.unlock()
                    }
                    group.leave()
                }
            }
        }

        /// Stderr so far.
        var stderrSoFar: String {
            lock.lock(); defer { lock.unlock() }
            return String(decoding: errData, as: UTF8.self)
        }

        /// Stdout so far.
        var stdoutSoFar: String {
            lock.lock(); defer { lock.unlock() }
            return String(decoding: outData, as: UTF8.self)
        }

        /// Waits until stderr contains `text` (true) or `timeout` passes (false).
        func waitForStderr(_ text: String, timeout: Double = 10) -> Bool {
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline {
                if stderrSoFar.contains(text) { return true }
                if !process.isRunning { return stderrSoFar.contains(text) }
                usleep(20_000)
            }
            return false
        }

        /// Sends a signal.
        func signal(_ sig: Int32) { kill(process.processIdentifier, sig) }

        /// Waits for the end (SIGKILL after `timeout` s) and returns everything it printed.
        func finish(timeout: Double = 60) -> Output {
            let deadline = Date().addingTimeInterval(timeout)
            while process.isRunning && Date() < deadline { usleep(10_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            group.wait()
            lock.lock(); defer { lock.unlock() }
            return Output(status: process.terminationStatus,
                          stdout: String(decoding: outData, as: UTF8.self),
                          stderr: String(decoding: errData, as: UTF8.self))
        }
    }
}

/// A fresh directory for one test's files.
func temporaryDirectory() -> String {
    let path = NSTemporaryDirectory() + "jackwave-test-\(UUID().uuidString)"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}
