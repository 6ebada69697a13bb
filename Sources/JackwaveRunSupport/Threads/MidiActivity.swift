import Synchronization

/// Per-port MIDI counters, written by the realtime callback and read by everyone who tells
/// the user (the meter, the summary, the level stream, the OSC status). Fixed at setup: one
/// line of counters per MIDI input, allocated before `jack_activate`.
///
/// Every counter is an independent total, added to and read `.relaxed`: none publishes
/// other memory (the events themselves travel through the MIDI ring).
public final class MidiActivity: @unchecked Sendable {
    /// The MIDI inputs counted: the recorded ones, then the control input, if any.
    public let ports: Int
    /// Per port: events received, events JACK lost (its own count), events the ring had no
    /// room for, and MMC commands beyond the first in a block (ignored).
    private let counters: UnsafeMutablePointer<Atomic<Int>>
    private static let perPort = 4

    public init(ports: Int) {
        self.ports = ports
        counters = .allocate(capacity: max(1, ports * Self.perPort))
        for i in 0..<max(1, ports * Self.perPort) { (counters + i).initialize(to: Atomic(0)) }
    }

    deinit {
        counters.deinitialize(count: max(1, ports * Self.perPort))
        counters.deallocate()
    }

    // realtime
    @inline(__always)
    public func received(port: Int, count: Int = 1) {
        counters[port * Self.perPort].add(count, ordering: .relaxed)
    }

    // realtime
    @inline(__always)
    public func jackLost(port: Int, count: Int) {
        counters[port * Self.perPort + 1].add(count, ordering: .relaxed)
    }

    // realtime
    @inline(__always)
    public func noRoom(port: Int) {
        counters[port * Self.perPort + 2].add(1, ordering: .relaxed)
    }

    // realtime
    @inline(__always)
    public func commandIgnored(port: Int) {
        counters[port * Self.perPort + 3].add(1, ordering: .relaxed)
    }

    private func load(_ port: Int, _ k: Int) -> Int { port < ports ? counters[port * Self.perPort + k].load(ordering: .relaxed) : 0 }
    public func events(port: Int) -> Int { load(port, 0) }
    public func lostByJack(port: Int) -> Int { load(port, 1) }
    public func lostForRoom(port: Int) -> Int { load(port, 2) }
    public func ignoredCommands(port: Int) -> Int { load(port, 3) }
}
