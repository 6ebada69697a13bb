import Foundation
import Testing

/// Where a server itself breaks a client's stream, and the sample-exact checks that
/// allow for it only there.
///
/// jackd runs in sync mode (`JackServer`): a late client costs time, never samples, so
/// every check is strict. PipeWire 0.3.65 under load skips a late client's cycle instead
/// of waiting for it: the test source's (it then says "skipped" on stdout) or jackwave's
/// (it says "the server skipped N frames"). Either breaks the pattern at the server, and
/// both say so; a run in which neither did and no xrun was reported is checked frame by
/// frame like jackd's.
extension ServerKind {
    /// Whether this run's stream may have been broken by the server itself: never on
    /// jackd; on PipeWire when jackwave (`stderr`) or the source said a cycle was skipped,
    /// or an xrun was reported.
    public func brokeStream(stderr: String, source: Run.Running? = nil) -> Bool {
        guard self == .pipewire else { return false }
        return Self.xruns(in: stderr) != 0 || stderr.contains("the server skipped")
            || source?.stdoutSoFar.contains("skipped") == true
    }

    /// The xruns jackwave's summary line reports (nil without one).
    public static func xruns(in stderr: String) -> Int? {
        stderr.firstMatch(of: #/, (\d+) xruns/#).flatMap { Int($0.1) }
    }

    /// `rec` holds the test pattern from frame 0 to its end (to `before` for `upTo`)
    /// without a missing, repeated or swapped sample, unless the server broke the stream
    /// itself: it said so (`brokeStream`), or, on PipeWire, the only breaks are whole cycles
    /// of silence (`TestPattern.silentCycles`: PipeWire ran jackwave without the source's
    /// output of a cycle, and neither client can tell). Then the run says so, and passes.
    public func expectPattern(_ rec: Recording, stderr: String, source: Run.Running?, quantum: Int, upTo before: Int? = nil,
                       sourceLocation: SourceLocation = #_sourceLocation) {
        guard !brokeStream(stderr: stderr, source: source) else { return }
        guard rec.frames > 0 else { Issue.record("an empty recording: \(stderr)", sourceLocation: sourceLocation); return }
        let end = before ?? rec.frames
        guard let mismatch = TestPattern.firstMismatch(in: rec, from: 0), mismatch.frame < end else { return }
        if self == .pipewire, let silent = TestPattern.silentCycles(in: rec, from: 0, upTo: end, quantum: quantum), silent > 0 {
            print("PipeWire gave jackwave \(silent) cycles of silence in place of the source's; the rest is the pattern, in order")
            return
        }
        Issue.record("first mismatch at \(mismatch): \(stderr)", sourceLocation: sourceLocation)
    }
}

extension TestServer {
    /// `ServerKind.brokeStream` for this server.
    public func brokeStream(stderr: String, source: Run.Running? = nil) -> Bool {
        kind.brokeStream(stderr: stderr, source: source)
    }

    /// `ServerKind.expectPattern` for this server.
    public func expectPattern(_ rec: Recording, stderr: String, source: Run.Running?, upTo before: Int? = nil,
                       sourceLocation: SourceLocation = #_sourceLocation) {
        kind.expectPattern(rec, stderr: stderr, source: source, quantum: period, upTo: before, sourceLocation: sourceLocation)
    }
}
