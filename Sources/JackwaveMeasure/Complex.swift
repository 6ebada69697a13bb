import Glibc

/// A complex number in double precision: the spectra of the analysis.
public struct Complex: Sendable, Equatable {
    public var re: Double
    public var im: Double

    public init(_ re: Double, _ im: Double = 0) {
        self.re = re
        self.im = im
    }

    /// `magnitude · e^(i·phase)`.
    public init(magnitude: Double, phase: Double) {
        self.init(magnitude * cos(phase), magnitude * sin(phase))
    }

    public static let zero = Complex(0, 0)

    public var squaredMagnitude: Double { re * re + im * im }
    public var magnitude: Double { hypot(re, im) }
    /// The argument in radians, in (−π, π].
    public var phase: Double { atan2(im, re) }
    public var conjugate: Complex { Complex(re, -im) }

    public static func + (a: Complex, b: Complex) -> Complex { Complex(a.re + b.re, a.im + b.im) }
    public static func - (a: Complex, b: Complex) -> Complex { Complex(a.re - b.re, a.im - b.im) }
    public static func * (a: Complex, b: Complex) -> Complex {
        Complex(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re)
    }
    public static func * (a: Complex, s: Double) -> Complex { Complex(a.re * s, a.im * s) }
    public static func / (a: Complex, b: Complex) -> Complex {
        let d = b.squaredMagnitude
        return Complex((a.re * b.re + a.im * b.im) / d, (a.im * b.re - a.re * b.im) / d)
    }
    public static func += (a: inout Complex, b: Complex) { a = a + b }
}
