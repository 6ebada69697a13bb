import Synchronization

/// Which of jackwave's own outputs each input records, when one of its outputs is
/// connected to one of its inputs (`--port jackwave:out_1`, or wired so in qjackctl).
///
/// Servers disagree on such a self-connection: jackd hands the input the output's buffer
/// of the cycle before, PipeWire hands it silence. So jackwave takes that audio inside the
/// callback, from the block the tone has just rendered, the same on every server: an input
/// fed so records exactly what the output plays, in the same cycle.
///
/// One atomic per input, set by the main thread as connections are made and broken, read
/// by the callback each cycle (relaxed: each is one independent value, and no other memory
/// is published with it; a change takes effect within a cycle or two, as a JACK connection
/// does). Allocated before activation, so the callback only loads.
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
    @inline(__always)
    public func source(of input: Int) -> Int? {
        let s = sources[input].load(ordering: .relaxed)
        return s == 0 ? nil : s - 1
    }
}
