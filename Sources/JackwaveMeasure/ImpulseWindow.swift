import Glibc

/// A window over part of an impulse response: flat around `center`, reaching `before` frames
/// back and `after` on, with raised-cosine tapers over the outer `taper` of each side. Flat,
/// so that a pulse near the centre is taken whole whatever the length; asymmetric, so that
/// each side can stop short of a neighbouring pulse.
public struct ImpulseWindow: Sendable, Equatable {
    public var center: Double
    public var before: Double
    public var after: Double
    public var taper = 0.3

    public init(center: Double, before: Double, after: Double, taper: Double = 0.3) {
        self.center = center
        self.before = before
        self.after = after
        self.taper = taper
    }

    /// The frames the window covers (its weight is 0 outside).
    public var frames: ClosedRange<Int> {
        Int((center - before).rounded(.up))...Int((center + after).rounded(.down))
    }

    /// The window's weight at frame `n`.
    public func weight(at n: Int) -> Double {
        let d = Double(n) - center
        if d < -before || d > after { return 0 }
        let rise = before * taper, fall = after * taper
        if d < -before + rise { return 0.5 - 0.5 * cos(Double.pi * (d + before) / rise) }
        if d > after - fall { return 0.5 - 0.5 * cos(Double.pi * (after - d) / fall) }
        return 1
    }

    /// The same window moved by `frames`.
    public func shifted(by frames: Double) -> ImpulseWindow {
        ImpulseWindow(center: center + frames, before: before, after: after, taper: taper)
    }
}
