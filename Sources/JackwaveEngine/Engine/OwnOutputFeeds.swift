import Synchronization

/// Which of jackwave's own outputs each input records, when an output is connected to an
/// input (`--port jackwave:out_1`). Servers disagree on such a self-connection (jackd hands
/// over the previous cycle's buffer, PipeWire silence), so the callback takes the audio from
/// the block the tone has just rendered: the output's own, same-cycle audio on every server.
///
/// One atomic per input, stored by the main thread as connections change, loaded by the
/// callback each cycle: relaxed, as each is one independent value publishing no other memory.
public final class OwnOutputFeeds: @unchecked Sendable {
    /// Inputs covered.
    public let inputs: Int
    /// Per input: 0 for none, else the output's index + 1.
    private let sources: UnsafeMutablePointer<Atomic<Int>>

    public init(inputs: Int) {
        self.inputs = inputs
        sources = .allocate(capacity: max(1, inputs))
        for i in 0..<max(1, inputs) { (sources + i).initialize(to: Atomic(0)) }
    }

    deinit {
        sources.deinitialize(count: max(1, inputs))
        sources.deallocate()
    }

    /// Makes `input` record `output` (both from 0), or its own port again with nil.
    public func feed(input: Int, from output: Int?) {
        sources[input].store(output.map { $0 + 1 } ?? 0, ordering: .relaxed)
    }

    /// The output `input` records, if any. Realtime-safe: one relaxed load.
    // realtime
    @inline(__always)
    public func source(of input: Int) -> Int? {
        let s = sources[input].load(ordering: .relaxed)
        return s == 0 ? nil : s - 1
    }
}
