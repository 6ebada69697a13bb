import Foundation
import JackwaveTestSupport
import JackwaveUnattended

/// The reference session manager, New Session Manager 1.6.1's `nsmd`, with its `jackpatch`,
/// built from the source beside the project (`build-nsmd`), running with a session root of
/// its own and driven through its server API from an `OscPeer`.
final class NSMServer: @unchecked Sendable {
    let process: Run.Running
    let root: String
    let port: Int
    /// Its address as it tells clients (`NSM_URL`: `osc.udp://HOST:PORT/`).
    let url: String
    let peer: OscPeer

    /// Where `build-nsmd` is: `$JACKWAVE_BUILD_NSMD`, or the shared tools beside the project.
    static var buildScript: String? {
        let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let candidates = [ProcessInfo.processInfo.environment["JACKWAVE_BUILD_NSMD"],
                          here.deletingLastPathComponent().appendingPathComponent("shared/tools/build-nsmd").path,
                          "/work/shared/tools/build-nsmd"].compactMap { $0 }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// `jackwave` as a session manager that leaks no descriptor to its clients starts it
    /// (RaySession's daemon, anything on Python's `subprocess`): nsmd 1.6.1 leaves its OSC
    /// socket open in every client it starts, which keeps its port taken for as long as any
    /// of them runs. This closes every descriptor but 0, 1 and 2, and becomes jackwave (the
    /// same process: nsmd stays its parent), announcing itself under this name.
    static let closingWrapper = "jackwave-closefds"
    static let closingScript = """
        #!/bin/bash
        for fd in /proc/$$/fd/*; do
          n=${fd##*/}
          if [ "$n" -gt 2 ]; then eval "exec $n>&-" 2>/dev/null; fi
        done
        exec -a \(closingWrapper) "$(dirname "$0")/jackwave" "$@"

        """

    /// `nsmd` and `jackpatch` in a folder of the build (built once), for the PATH of the clients.
    static func binaries() throws -> String {
        let dir = URL(fileURLWithPath: Run.jackwave).deletingLastPathComponent().appendingPathComponent("nsm").path
        if FileManager.default.isExecutableFile(atPath: dir + "/nsmd") && FileManager.default.isExecutableFile(atPath: dir + "/jackpatch") {
            return dir
        }
        guard let script = buildScript else { throw TestFailure("build-nsmd not found (set JACKWAVE_BUILD_NSMD)") }
        let out = try Run.tool("/bin/bash", [script, dir], server: nil, timeout: 300)
        guard out.status == 0 else { throw TestFailure("build-nsmd failed: \(out.stderr)") }
        return dir
    }

    /// Starts nsmd for clients of `server`, and waits until it tells its address (its
    /// daemon file, under a runtime folder of its own).
    init(server: any TestServer) throws {
        let bin = try Self.binaries()
        // The clients nsmd starts are found on its PATH: jackpatch, and this build's jackwave.
        if (try? FileManager.default.destinationOfSymbolicLink(atPath: bin + "/jackwave")) != Run.jackwave {
            try? FileManager.default.removeItem(atPath: bin + "/jackwave")
            try FileManager.default.createSymbolicLink(atPath: bin + "/jackwave", withDestinationPath: Run.jackwave)
        }
        let wrapper = bin + "/" + Self.closingWrapper
        if (try? String(contentsOfFile: wrapper, encoding: .utf8)) != Self.closingScript {
            let staging = wrapper + ".\(getpid())"
            try Self.closingScript.write(toFile: staging, atomically: false, encoding: .utf8)
            chmod(staging, 0o755)
            rename(staging, wrapper)
        }
        root = temporaryDirectory()
        let runtime = temporaryDirectory()
        chmod(runtime, 0o700)
        let path = bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let process = try Run.start(bin + "/nsmd", ["--session-root", root], server: server.name,
                                    environment: ["PATH": path, "XDG_RUNTIME_DIR": runtime])
        self.process = process
        var url: String?
        _ = waitUntil(timeout: 30) {
            let daemons = (try? FileManager.default.contentsOfDirectory(atPath: runtime + "/nsm/d")) ?? []
            url = daemons.lazy.compactMap { try? String(contentsOfFile: runtime + "/nsm/d/" + $0, encoding: .utf8) }.first { $0.contains(":") }
            return url != nil || !process.isRunning
        }
        guard let url, let port = url.firstMatch(of: #/:(\d+)/?\s*$/#).flatMap({ Int($0.1) }) else {
            process.signal(SIGKILL)
            throw TestFailure("nsmd told no address: \(process.stderrSoFar)")
        }
        self.port = port
        self.url = url.trimmingCharacters(in: .whitespacesAndNewlines)
        peer = try OscPeer()
    }

    deinit {
        process.signal(SIGTERM)
        if !waitUntil(timeout: 10, { !process.isRunning }) { process.signal(SIGKILL) }
    }

    /// Sends a server request (`/nsm/server/new`, `add`, `save`, `close`, `open`, `quit`) and
    /// waits for its `/reply` or `/error`; the reply's message, or a failure with what came.
    @discardableResult
    func request(_ path: String, _ arguments: [String] = [], timeout: Double = 30) throws -> String {
        let before = peer.received.count
        let sent = Date()
        defer { print("nsmd: \(path) answered in \(String(format: "%.2f", Date().timeIntervalSince(sent))) s") }
        peer.send(path, arguments.map { .string($0) }, to: port)
        var answer: OscMessage?
        _ = waitUntil(timeout: timeout) {
            answer = peer.received.dropFirst(before).first { message in
                (message.path == "/reply" || message.path == "/error") && message.arguments.first == .string(path)
            }
            return answer != nil
        }
        guard let answer else { throw TestFailure("nsmd did not answer \(path) in \(timeout) s: \(process.stderrSoFar.suffix(2000))") }
        guard answer.path == "/reply" else { throw TestFailure("nsmd refused \(path): \(answer.arguments)") }
        if case let .string(message)? = answer.arguments.dropFirst().first { return message }
        return ""
    }

    /// `/nsm/server/quit`, which nsmd answers by closing the session (its clients get
    /// SIGTERM) and ending, without a reply: waits (bounded) for it to end.
    func quit(timeout: Double = 30) {
        peer.send("/nsm/server/quit", to: port)
        _ = waitUntil(timeout: timeout) { !process.isRunning }
    }

    /// The folder of the jackwave client in session `name`, once nsmd has opened it.
    func clientFolder(session name: String, timeout: Double = 30) -> String? {
        var found: String?
        _ = waitUntil(timeout: timeout) {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: root + "/" + name)) ?? []
            found = entries.first { $0.hasPrefix("jackwave.n") }.map { root + "/" + name + "/" + $0 }
            return found != nil
        }
        return found
    }
}
