import CFFTW
import Synchronization

/// A real-input FFT of one length, forward and inverse: the one place jackwave calls FFTW's
/// transforms. Planned with `FFTW_ESTIMATE`: no trial runs, so planning takes microseconds
/// and the same input always gives the same output. FFTW's planner is not thread-safe (its
/// plans' creation and destruction share state; only executing them is safe), so both take
/// `planner`: two measurements, or two tests, in parallel corrupted its heap without it.
public final class RealFFT {
    /// Held while FFTW plans or destroys a plan.
    private static let planner = Mutex(())
    /// Samples per transform.
    public let size: Int
    /// Bins of a forward transform: `size / 2 + 1`, from 0 Hz to the Nyquist frequency.
    public var bins: Int { size / 2 + 1 }
    private let fftw: UnsafePointer<jackwave_fftw>
    private let samples: UnsafeMutablePointer<Double>
    private let spectrum: UnsafeMutablePointer<fftw_complex>
    private let forwardPlan: fftw_plan
    private let inversePlan: fftw_plan

    /// Plans both directions for `size` samples (at least 2); loads FFTW first.
    public init(size: Int) throws(MeasureError) {
        precondition(size >= 2, "an FFT needs at least two samples")
        fftw = try FFTWLibrary.loaded.get()
        self.size = size
        let f = fftw.pointee
        samples = f.fftw_malloc(MemoryLayout<Double>.stride * size)!.bindMemory(to: Double.self, capacity: size)
        spectrum = f.fftw_malloc(MemoryLayout<fftw_complex>.stride * (size / 2 + 1))!
            .bindMemory(to: fftw_complex.self, capacity: size / 2 + 1)
        let flags = UInt32(FFTW_ESTIMATE)
        // Pointers are not Sendable; the lock is what makes their use here safe.
        nonisolated(unsafe) let (library, input, output) = (f, samples, spectrum)
        nonisolated(unsafe) var plans: (fftw_plan?, fftw_plan?) = (nil, nil)
        Self.planner.withLock { _ in
            plans = (library.fftw_plan_dft_r2c_1d(Int32(size), input, output, flags),
                     library.fftw_plan_dft_c2r_1d(Int32(size), output, input, flags))
        }
        forwardPlan = plans.0!
        inversePlan = plans.1!
    }

    deinit {
        let f = fftw.pointee
        nonisolated(unsafe) let (library, forward, inverse) = (f, forwardPlan, inversePlan)
        Self.planner.withLock { _ in
            library.fftw_destroy_plan(forward)
            library.fftw_destroy_plan(inverse)
        }
        f.fftw_free(samples)
        f.fftw_free(spectrum)
    }

    /// The spectrum of `x` (zero-padded, or cut, to `size`): `bins` values, unscaled
    /// (`X[k] = Σ x[n] e^(−2πi·kn/size)`).
    public func forward(_ x: UnsafeBufferPointer<Double>) -> [Complex] {
        let n = Swift.min(x.count, size)
        if n > 0 { samples.update(from: x.baseAddress!, count: n) }
        if n < size { (samples + n).update(repeating: 0, count: size - n) }
        fftw.pointee.fftw_execute(forwardPlan)
        return (0..<bins).map { Complex(spectrum[$0].0, spectrum[$0].1) }
    }

    /// `forward` of an array.
    public func forward(_ x: [Double]) -> [Complex] { x.withUnsafeBufferPointer { forward($0) } }

    /// The signal whose spectrum is `X` (`bins` values; the imaginary parts of the first and
    /// last are ignored), scaled by `1 / size` so that `inverse(forward(x)) == x`.
    public func inverse(_ X: [Complex]) -> [Double] {
        precondition(X.count == bins, "an inverse FFT of \(size) samples takes \(bins) bins")
        for k in 0..<bins { spectrum[k] = (X[k].re, X[k].im) }
        fftw.pointee.fftw_execute(inversePlan)
        let scale = 1 / Double(size)
        return (0..<size).map { samples[$0] * scale }
    }

    /// The smallest power of two that is at least `n`.
    public static func powerOfTwo(atLeast n: Int) -> Int {
        var size = 2
        while size < n { size <<= 1 }
        return size
    }
}
