import Glibc

/// The sine that best fits a stretch of samples, by least squares over amplitude, phase,
/// offset and frequency (IEEE Std 1057's four-parameter fit): what THD+N removes as the
/// fundamental. Fitting the frequency too makes a path whose clock differs a little from
/// jackwave's (a network link, a second sound card) no worse than a direct one.
public struct SineFit: Sendable, Equatable {
    /// `x[n] ≈ a·cos(ω·n') + b·sin(ω·n') + offset`, with n' = n − the stretch's middle.
    public let a: Double
    public let b: Double
    public let offset: Double
    /// Radians per frame.
    public let omega: Double

    /// The fitted sine's peak amplitude.
    public var amplitude: Double { (a * a + b * b).squareRoot() }

    /// Fits `x`, starting from `frequency` Hz at `sampleRate` (six Gauss-Newton steps; the
    /// starting frequency must be within a fraction of a bin of the true one).
    public init(_ x: [Double], frequency: Double, sampleRate: Double) {
        let middle = Double(x.count - 1) / 2
        var omega = 2 * Double.pi * frequency / sampleRate
        var p = SineFit.linearFit(x, omega: omega, middle: middle)
        for _ in 0..<6 {
            // Columns cos, sin, 1 and the derivative by ω; solve for the four corrections.
            var normal = NormalEquations(size: 4)
            x.withUnsafeBufferPointer { samples in
                for n in 0..<samples.count {
                    let t = Double(n) - middle
                    let c = cos(omega * t), s = sin(omega * t)
                    let residual = samples[n] - (p.a * c + p.b * s + p.offset)
                    normal.add(c, s, 1, t * (-p.a * s + p.b * c), value: residual)
                }
            }
            guard let d = normal.solution() else { break }
            p = (p.a + d[0], p.b + d[1], p.offset + d[2])
            omega += d[3]
            if abs(d[3]) < 1e-15 { break }
        }
        a = p.a
        b = p.b
        offset = p.offset
        self.omega = omega
    }

    /// What is left of `x` after the fitted sine.
    public func residual(of x: [Double]) -> [Double] {
        let middle = Double(x.count - 1) / 2
        return x.enumerated().map { n, value in
            let t = Double(n) - middle
            return value - (a * cos(omega * t) + b * sin(omega * t) + offset)
        }
    }

    /// The three-parameter fit (amplitudes and offset) at a fixed ω.
    static func linearFit(_ x: [Double], omega: Double, middle: Double) -> (a: Double, b: Double, offset: Double) {
        var normal = NormalEquations(size: 3)
        x.withUnsafeBufferPointer { samples in
            for n in 0..<samples.count {
                let t = Double(n) - middle
                normal.add(cos(omega * t), sin(omega * t), 1, 0, value: samples[n])
            }
        }
        guard let s = normal.solution() else { return (0, 0, 0) }
        return (s[0], s[1], s[2])
    }
}

/// The normal equations of a least-squares fit of up to four columns, summed row by row
/// (a column past `size` is passed as 0 and left out of the solution).
struct NormalEquations {
    let size: Int
    private var m0 = SIMD4<Double>.zero, m1 = SIMD4<Double>.zero, m2 = SIMD4<Double>.zero, m3 = SIMD4<Double>.zero
    private var v = SIMD4<Double>.zero

    init(size: Int) { self.size = size }

    /// One row of columns and the value it is fitted to.
    mutating func add(_ c0: Double, _ c1: Double, _ c2: Double, _ c3: Double, value: Double) {
        let row = SIMD4(c0, c1, c2, c3)
        v += row * value
        m0 += row * c0
        m1 += row * c1
        m2 += row * c2
        m3 += row * c3
    }

    /// The least-squares coefficients; nil for a singular system.
    func solution() -> [Double]? {
        let rows = [m0, m1, m2, m3]
        return LinearSystem.solve((0..<size).map { i in (0..<size).map { rows[i][$0] } }, (0..<size).map { v[$0] })
    }
}

/// Small dense linear systems.
enum LinearSystem {
    /// Gaussian elimination with partial pivoting; nil for a singular system.
    static func solve(_ matrix: [[Double]], _ vector: [Double]) -> [Double]? {
        var m = matrix, v = vector
        let n = v.count
        for col in 0..<n {
            guard let pivot = (col..<n).max(by: { abs(m[$0][col]) < abs(m[$1][col]) }), m[pivot][col] != 0 else { return nil }
            m.swapAt(col, pivot)
            v.swapAt(col, pivot)
            for row in (col + 1)..<n {
                let factor = m[row][col] / m[col][col]
                for j in col..<n { m[row][j] -= factor * m[col][j] }
                v[row] -= factor * v[col]
            }
        }
        var x = [Double](repeating: 0, count: n)
        for row in stride(from: n - 1, through: 0, by: -1) {
            var sum = v[row]
            for j in (row + 1)..<n { sum -= m[row][j] * x[j] }
            x[row] = sum / m[row][row]
        }
        return x
    }
}
