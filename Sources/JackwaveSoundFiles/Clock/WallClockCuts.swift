/// Where a recording on the wall clock (`--split-every`) cuts its pieces, on the frame clock.
/// The frame clock is the truth: no frame is dropped, doubled or moved; only the cuts follow
/// the wall clock. A reading (`observe`) off by less than `driftTolerance` is jitter; by less
/// than `stepThreshold`, drift (a sound card's clock runs some ppm off), and the anchor moves;
/// beyond, a step (`ClockStep`): the piece ends at once and the next is named after the new
/// reading, so a piece named 14:00 never holds audio the clock called 12:30. DST is no step.
public struct WallClockCuts: Sendable {
    /// Readings this close to the frame clock's time are taken as agreeing.
    public static let driftTolerance = 0.02
    /// A reading this far from the frame clock's time is a step of the wall clock.
    public static let stepThreshold = 1.0

    public let boundaries: ClockBoundaries
    public let sampleRate: Int
    /// The frame clock's tie to the wall clock, moved by `observe`.
    public private(set) var anchor: ClockAnchor
    /// The piece being written.
    public private(set) var current: ClockPiece
    /// Where the next piece begins (a frame the writer may already have passed after a step:
    /// it then cuts at once).
    public private(set) var next: ClockPiece

    /// Cuts for a recording whose frame 0 was at `start`: the first piece starts there and is
    /// named after it.
    public init(boundaries: ClockBoundaries, sampleRate: Int, start: WallClockTime) {
        self.boundaries = boundaries
        self.sampleRate = sampleRate
        anchor = ClockAnchor(frame: 0, time: start)
        current = ClockPiece(frame: 0, named: start, cause: .start)
        next = current
        next = following(current)
    }

    /// The writer has reached `next.frame` and cut: the next piece is now the current one,
    /// and the one after it is worked out. Returns the new current piece.
    @discardableResult
    public mutating func advance() -> ClockPiece {
        current = next
        next = following(current)
        return current
    }

    /// Compares the wall clock's `reading` at `frame` (a frame the callback has reached) with
    /// the frame clock; moves the anchor for drift, and for a step returns it, having made
    /// the next piece start at `frame`, named after the reading.
    public mutating func observe(frame: Int64, reading: WallClockTime) -> ClockStep? {
        let difference = anchor.difference(reading: reading, atFrame: frame, sampleRate: sampleRate)
        guard abs(difference) > Self.driftTolerance else { return nil }
        let expected = anchor.time(ofFrame: frame, sampleRate: sampleRate)
        anchor = ClockAnchor(frame: frame, time: reading)
        guard abs(difference) >= Self.stepThreshold else {
            // Drift: the same boundary, at the frame the moved anchor gives it (never before
            // the current piece's first frame).
            if next.cause == .boundary {
                next = ClockPiece(frame: max(current.frame + 1, anchor.firstFrame(atOrAfter: next.named.seconds, sampleRate: sampleRate)),
                                  named: next.named, cause: .boundary)
            }
            return nil
        }
        next = ClockPiece(frame: max(current.frame + 1, frame), named: reading, cause: .step)
        return ClockStep(frame: frame, expected: expected, reading: reading, seconds: difference)
    }

    /// The piece after `piece`: at the first boundary after its name's time.
    private func following(_ piece: ClockPiece) -> ClockPiece {
        let boundary = boundaries.next(after: piece.named)
        let frame = anchor.firstFrame(atOrAfter: boundary, sampleRate: sampleRate)
        return ClockPiece(frame: max(piece.frame + 1, frame), named: WallClockTime(seconds: boundary, nanoseconds: 0), cause: .boundary)
    }
}

/// A piece of a recording on the wall clock: its first frame and the time it is named after.
public struct ClockPiece: Sendable, Equatable {
    /// Why a piece starts where it does.
    public enum Cause: Sendable, Equatable {
        /// The recording's first frame, named after its wall-clock time.
        case start
        /// A boundary of the period, named after the boundary's exact time (14:00:00).
        case boundary
        /// A step of the wall clock, named after the new reading.
        case step
    }

    public let frame: Int64
    public let named: WallClockTime
    public let cause: Cause

    public init(frame: Int64, named: WallClockTime, cause: Cause) {
        self.frame = frame
        self.named = named
        self.cause = cause
    }
}

/// The wall clock jumped (by `seconds`, ahead if positive) at `frame`: it read `reading` where
/// the frame clock said `expected`. To be reported; the audio is untouched.
public struct ClockStep: Sendable, Equatable {
    public let frame: Int64
    public let expected: WallClockTime
    public let reading: WallClockTime
    public let seconds: Double
}
