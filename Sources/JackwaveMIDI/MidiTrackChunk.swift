/// One track of a Standard MIDI File as it grows: the body of its MTrk chunk, each event
/// after its delta time from the one before. Its end (`ending(at:)`) is made anew each time
/// the file is written, because it moves with the audio's end.
///
/// A delta time holds at most `VariableLengthQuantity.maximum` ticks (93 minutes at 48 kHz,
/// 23 at 192 kHz), and an input may be silent for longer. Such a wait is bridged: an event
/// that changes nothing (`bridge`) at every `maximum` ticks, so that each delta fits.
struct MidiTrackChunk {
    /// The events, each after its delta time; no End of Track.
    private(set) var body: [UInt8] = []
    /// The tick of the last event (0 before the first).
    private(set) var lastTick = 0
    /// An event that changes nothing, without its delta time: what bridges a long wait.
    let bridge: [UInt8]

    /// End of Track, without its delta time.
    static let endOfTrack: [UInt8] = [0xFF, 0x2F, 0x00]

    init(bridge: [UInt8]) { self.bridge = bridge }

    /// Appends `event` (its bytes as the file holds them, without a delta time) at `tick`.
    /// An event never goes back in time: one before the last is put at the last's tick.
    /// The caller bounds `tick` (`StandardMidiFile.maximumTick`), which bounds the bridges.
    mutating func append(_ event: [UInt8], at tick: Int) {
        let at = max(tick, lastTick)
        // Static, not a method: a method's call takes `self`, with a second reference to
        // `body`, whose every append then copied it whole (3,600 mmaps a second at 10,000
        // events a second, measured with perf).
        Self.delay(from: lastTick, to: at, bridge: bridge, into: &body)
        body.append(contentsOf: event)
        lastTick = at
    }

    /// What follows the body in a file whose tracks end at `end` (not before `lastTick`):
    /// the bridges the wait needs, then End of Track.
    func ending(at end: Int) -> [UInt8] {
        var out: [UInt8] = []
        Self.delay(from: lastTick, to: max(end, lastTick), bridge: bridge, into: &out)
        out.append(contentsOf: Self.endOfTrack)
        return out
    }

    /// Appends the wait from `lastTick` to `tick`: `bridge` every `maximum` ticks while more
    /// than that is left, then the delta time of what follows.
    private static func delay(from lastTick: Int, to tick: Int, bridge: [UInt8], into bytes: inout [UInt8]) {
        var wait = tick - lastTick
        while wait > VariableLengthQuantity.maximum {
            VariableLengthQuantity.append(VariableLengthQuantity.maximum, to: &bytes)
            bytes.append(contentsOf: bridge)
            wait -= VariableLengthQuantity.maximum
        }
        VariableLengthQuantity.append(wait, to: &bytes)
    }
}
