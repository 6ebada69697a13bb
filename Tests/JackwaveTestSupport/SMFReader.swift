import Foundation

/// A Standard MIDI File as another library reads it, through `jackwave-smfread`: portSMF's
/// own reader (what `jackwave plot`'s reading is built on) or libsmf. Each reading is a
/// process of its own, so that a library that aborts on a file (libsmf asserts) fails that
/// reading, with its signal said, and never the test runner.
public struct SMFReader {
    public enum Library: String, Sendable, CaseIterable {
        case portSMF = "portsmf"
        case libsmf
    }

    /// One event: its track (0 is a type-1 file's conductor), its tick, and its bytes as
    /// `jackwave-smfread` prints them (a meta event as FF, its type, its data).
    public struct Event: Equatable, CustomStringConvertible {
        public var track: Int
        public var tick: Int
        public var bytes: [UInt8]
        public init(track: Int, tick: Int, bytes: [UInt8]) {
            self.track = track
            self.tick = tick
            self.bytes = bytes
        }
        public var description: String { "\(track) \(tick): " + bytes.map { String(format: "%02X", $0) }.joined(separator: " ") }
        public var isMeta: Bool { bytes.first == 0xFF }
    }

    public var format = 0
    public var trackCount = 0
    public var division = 0
    public var events: [Event] = []

    /// `jackwave-smfread`, next to `jackwave`.
    public static var tool: String {
        URL(fileURLWithPath: Run.jackwave).deletingLastPathComponent().appendingPathComponent("jackwave-smfread").path
    }

    /// Reads `path` with `library`; throws, saying how the reading ended, when it did not
    /// read the file (a refusal, or a death by a signal: 134 is libsmf's abort).
    public init(_ path: String, with library: Library) throws {
        let out = try Run.tool(Self.tool, [library.rawValue, path], server: nil, timeout: 120)
        guard out.status == 0 else {
            throw TestFailure("\(library.rawValue) did not read \(path): exit \(out.status)\(out.status > 128 ? " (signal \(out.status - 128))" : ""): \(out.stderr.suffix(400))")
        }
        for line in out.stdout.split(separator: "\n") {
            let f = line.split(separator: " ")
            if f.first == "header", f.count == 4 {
                format = Int(f[1]) ?? -1
                trackCount = Int(f[2]) ?? -1
                division = Int(f[3]) ?? -1
                continue
            }
            guard f.count == 3, let track = Int(f[0]), let tick = Int(f[1]), f[2].count % 2 == 0 else {
                throw TestFailure("jackwave-smfread: not an event line: \(line)")
            }
            let hex = Array(f[2])
            let bytes = stride(from: 0, to: hex.count, by: 2).compactMap { UInt8(String(hex[$0..<($0 + 2)]), radix: 16) }
            events.append(Event(track: track, tick: tick, bytes: bytes))
        }
    }

    /// The events of `track` (from 0: 1 is the first input's), in file order.
    public func track(_ number: Int) -> [Event] { events.filter { $0.track == number } }

    /// The MIDI messages of `track`, meta events left out, as `MidiCSV` gives them.
    public func messages(track number: Int) -> [MidiCSV.Event] {
        track(number).filter { !$0.isMeta }.map { MidiCSV.Event(tick: $0.tick, bytes: $0.bytes) }
    }
}
