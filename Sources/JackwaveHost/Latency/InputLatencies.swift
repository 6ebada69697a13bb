import FoundationEssentials
import JackwaveEngine
import JackwaveSoundFiles

/// The capture latency of each of a run's inputs at one moment (`LatencyWatch.read`), and
/// what is said of it: the line at a connection's start, on a change and in the summary, and
/// the note in each file's `bext` description.
///
/// Inputs with different latencies are told apart, never averaged: the lines group the
/// inputs by their range. The files' time stamp subtracts the largest latency any connected
/// input declares (`stampFrames`): the stamp is then when the earliest of the first samples
/// was captured, and every other input's first sample came after it by the difference,
/// which the description and the lines give. A latency of 0 is what a source that declares
/// nothing gives (as zita-n2j, netjack1 and JackTrip's ports do): unknown, not "none".
public struct InputLatencies: Equatable, Sendable {
    /// The inputs' short names (`in_1`…), in order.
    public let names: [String]
    /// Each input's range in frames; nil for an input nothing is connected to.
    public let ranges: [DeclaredLatency?]

    public init(names: [String], ranges: [DeclaredLatency?]) {
        precondition(names.count == ranges.count)
        self.names = names
        self.ranges = ranges
    }

    /// The ranges of the connected inputs.
    private var connected: [DeclaredLatency] { ranges.compactMap { $0 } }

    /// Whether any input is connected.
    public var anyConnected: Bool { !connected.isEmpty }

    /// Whether the connected inputs declare different ranges.
    public var differ: Bool { Set(connected.map { [$0.minimum, $0.maximum] }).count > 1 }

    /// The frames the files' time stamp subtracts: the largest latency a connected input
    /// declares (the top of its range); 0 when none declares any.
    public var stampFrames: Int { connected.map(\.maximum).max() ?? 0 }

    /// The inputs whose range changed from `earlier` (connected or not included).
    public func changedInputs(from earlier: InputLatencies?) -> [Int] {
        ranges.indices.filter { earlier == nil || earlier!.ranges.count != ranges.count || earlier!.ranges[$0] != ranges[$0] }
    }

    /// What the inputs declare, for a line: "capture latency 256 frames (5.333 ms) on
    /// in_1–in_2", or "capture latency of in_1: none declared upstream, so unknown …", or
    /// "capture latency differs between inputs: …". With `stamped`, what the files' `bext`
    /// time does with it. Nil when no input is connected.
    public func line(sampleRate: Int, stamped: Bool) -> String? {
        guard anyConnected else { return nil }
        let groups = self.groups
        if groups.count == 1, let (range, inputs) = groups.first {
            if range.maximum == 0 {
                return "capture latency of \(inputs): none declared upstream, so unknown (a network link that does not declare its own, as zita-n2j, looks like none)"
                    + (stamped ? "; nothing is subtracted from the files' bext time" : "")
            }
            return "capture latency \(Self.text(range, sampleRate)) on \(inputs)"
                + (stamped ? ": subtracted from the files' bext time, which is when their first sample was captured" : "")
        }
        let parts = groups.map { range, inputs in
            range.maximum == 0 ? "none declared on \(inputs) (unknown)" : "\(Self.text(range, sampleRate)) on \(inputs)"
        }
        return "capture latency differs between inputs: " + parts.joined(separator: ", ")
            + (stamped ? "; the files' bext time subtracts the largest, \(Self.text(DeclaredLatency(minimum: stampFrames, maximum: stampFrames), sampleRate))" : "")
    }

    /// What a file's `bext` description says of it (in parentheses after the capture time).
    public func stamp(sampleRate: Int) -> CaptureLatencyStamp {
        guard anyConnected else {
            return CaptureLatencyStamp(frames: 0, sampleRate: sampleRate, note: "capture latency unknown: no input connected at the start")
        }
        guard stampFrames > 0 else {
            return CaptureLatencyStamp(frames: 0, sampleRate: sampleRate, note: "capture latency unknown: none declared upstream, not subtracted")
        }
        var note = "capture latency \(stampFrames) frames at \(sampleRate) Hz"
        if differ {
            note += ", the largest of the inputs': " + groups.map { range, inputs in "\(inputs) \(range.minimum == range.maximum ? "\(range.maximum)" : "\(range.minimum)-\(range.maximum)")" }
                .joined(separator: ", ")
        }
        return CaptureLatencyStamp(frames: stampFrames, sampleRate: sampleRate, note: note)
    }

    /// The connected inputs grouped by range, in order of first appearance, each group's
    /// inputs named compactly (`in_1–in_4, in_7`).
    var groups: [(range: DeclaredLatency, inputs: String)] {
        var order: [DeclaredLatency] = []
        var members: [[Int]] = []
        for (i, range) in ranges.enumerated() {
            guard let range else { continue }
            if let k = order.firstIndex(of: range) { members[k].append(i) } else {
                order.append(range)
                members.append([i])
            }
        }
        return zip(order, members).map { ($0, Self.names(of: $1, in: names)) }
    }

    /// Runs of consecutive inputs as `first–last`, others by name, comma-separated.
    static func names(of indices: [Int], in names: [String]) -> String {
        var parts: [String] = []
        var start = 0
        while start < indices.count {
            var end = start
            while end + 1 < indices.count && indices[end + 1] == indices[end] + 1 { end += 1 }
            parts.append(end - start >= 2 ? "\(names[indices[start]])–\(names[indices[end]])"
                         : (start...end).map { names[indices[$0]] }.joined(separator: ", "))
            start = end + 1
        }
        return parts.joined(separator: ", ")
    }

    /// "256 frames (5.333 ms)" or "256–512 frames (5.333–10.667 ms)".
    static func text(_ range: DeclaredLatency, _ sampleRate: Int) -> String {
        func ms(_ frames: Int) -> String { String(printf: "%.3f", Double(frames) * 1000 / Double(sampleRate)) }
        let time = range.minimum == range.maximum ? ms(range.maximum) : "\(ms(range.minimum))–\(ms(range.maximum))"
        return "\(range) (\(time) ms)"
    }
}

extension DeclaredLatency: CustomStringConvertible {
    /// "256 frames" or "256–512 frames".
    public var description: String { minimum == maximum ? "\(minimum) frames" : "\(minimum)–\(maximum) frames" }
}
