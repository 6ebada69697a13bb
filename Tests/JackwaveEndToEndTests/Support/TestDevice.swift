import Foundation
import JackwaveTestSupport

/// `jackwave-testdevice`: a JACK client standing for a device under test, with parameters the
/// test sets and knows (see its source's head for the signal chain).
struct TestDevice {
    var channels = 2
    var name = "dut"
    /// The delay in frames, D ≥ 128: floor(D) − 127 whole frames and a 255-tap windowed-sinc
    /// FIR centred on 127 + the fraction.
    var delay = 200.25
    /// Per channel (from 1): a1…a5 of the polynomial.
    var polynomials: [Int: [Double]] = [:]
    /// Per channel: b0, b1, b2, a1, a2.
    var biquads: [Int: [Double]] = [:]
    var gains: [Int: Double] = [:]
    /// (from, to, gain): channel `from`'s input added to channel `to`.
    var leaks: [(from: Int, to: Int, gain: Double)] = []
    /// Per channel: (RMS, seed).
    var noise: [Int: (rms: Double, seed: UInt64)] = [:]

    static var executable: String {
        URL(fileURLWithPath: Run.jackwave).deletingLastPathComponent().appendingPathComponent("jackwave-testdevice").path
    }

    var arguments: [String] {
        var a = ["\(channels)", name, "--delay", "\(delay)"]
        func list(_ v: [Double]) -> String { v.map { "\($0)" }.joined(separator: ",") }
        for (c, p) in polynomials.sorted(by: { $0.key < $1.key }) { a += ["--poly", "\(c):\(list(p))"] }
        for (c, q) in biquads.sorted(by: { $0.key < $1.key }) { a += ["--biquad", "\(c):\(list(q))"] }
        for (c, g) in gains.sorted(by: { $0.key < $1.key }) { a += ["--gain", "\(c):\(g)"] }
        for leak in leaks { a += ["--leak", "\(leak.from):\(leak.to):\(leak.gain)"] }
        for (c, n) in noise.sorted(by: { $0.key < $1.key }) { a += ["--noise", "\(c):\(n.rms):\(n.seed)"] }
        return a
    }

    /// Starts it on `server` and waits until it is active.
    func start(on server: any TestServer) throws -> Run.Running {
        let device = try Run.start(Self.executable, arguments, server: server.name)
        guard waitUntil(timeout: 30, { device.stdoutSoFar.contains("ready") || !device.isRunning }),
              device.stdoutSoFar.contains("ready") else {
            device.signal(SIGKILL)
            throw TestFailure("jackwave-testdevice did not start: \(device.finish(timeout: 5).stderr)")
        }
        return device
    }
}

extension Run.Running {
    /// The server frame times at which `jackwave-testdevice` noticed something done to it so
    /// far ("disturbed at T"): frames the server skipped it for, or a gap of a cycle or two of
    /// silence amid its input. Either breaks what it plays back.
    var disturbanceTimes: [UInt32] {
        stdoutSoFar.split(separator: "\n").compactMap { $0.hasPrefix("disturbed at ") ? UInt32($0.dropFirst(13)) : nil }
    }
}

/// `jack_delay` (Debian `jack-delay`, Fons Adriaensen's multi-tone phase method), measuring
/// the round trip from its output to its input: the peer the latency is checked against.
enum JackDelay {
    /// The delay in frames jack_delay settles on through `destination` … `source`: it prints a
    /// reading about every 0.5 s; the value once five readings in a row agree.
    static func measure(on server: any TestServer, destination: String, source: String) throws -> Double {
        let peer = try Run.start("/usr/bin/jack_delay", ["-O", destination, "-I", source], server: server.name)
        defer {
            peer.signal(SIGTERM)
            _ = peer.finish(timeout: 5)
        }
        var readings: [Double] = []
        let settled = waitUntil(timeout: 30, interval: 0.1) {
            readings = peer.stdoutSoFar.split(separator: "\n").compactMap { line in
                let fields = line.split(separator: " ")
                return fields.count >= 2 && fields[1] == "frames" ? Double(fields[0]) : nil
            }
            return readings.count >= 5 && Set(readings.suffix(5)).count == 1 || !peer.isRunning
        }
        guard settled, let value = readings.last else {
            throw TestFailure("jack_delay did not settle: \(peer.stdoutSoFar.suffix(300)) \(peer.stderrSoFar.suffix(300))")
        }
        return value
    }
}

/// The latency a port declares, as `jack_lsp -l` prints it: an independent reading of
/// `jack_port_get_latency_range`.
enum JackLsp {
    /// `port`'s declared capture or playback latency (the range's maximum).
    static func latency(of port: String, capture: Bool, on server: any TestServer) throws -> Int {
        let out = try Run.tool("/usr/bin/jack_lsp", ["-l", port], server: server.name, timeout: 30)
        let key = capture ? "port capture latency = [" : "port playback latency = ["
        guard let line = out.stdout.split(separator: "\n").first(where: { $0.contains(key) }),
              let range = line.split(separator: "[").last?.split(separator: "]").first?.split(separator: " "),
              let maximum = range.last.flatMap({ Int($0) }) else {
            throw TestFailure("jack_lsp -l \(port): \(out.stdout) \(out.stderr)")
        }
        return maximum
    }
}
