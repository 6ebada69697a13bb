import Foundation

/// Measurements on recorded signals.
public enum Signal {
    /// Frequency from rising zero crossings (linearly interpolated): whole periods between
    /// the first and last crossing over the time between them.
    public static func frequency(_ x: [Float], rate: Double) -> Double? {
        var crossings: [Double] = []
        for i in x.indices.dropFirst() where x[i - 1] < 0 && x[i] >= 0 {
            let a = Double(x[i - 1]), b = Double(x[i])
            crossings.append(Double(i - 1) + a / (a - b))
        }
        guard let first = crossings.first, let last = crossings.last, crossings.count > 2 else { return nil }
        return Double(crossings.count - 1) / ((last - first) / rate)
    }

    /// What is left of `x` after a least-squares fit of a sine of known frequency (any
    /// amplitude and phase, plus an offset).
    public static func sineResidual(_ x: [Float], frequency: Double, rate: Double) -> [Double] {
        sineResidual(x.enumerated().map { ($0.offset, $0.element) }, frequency: frequency, rate: rate)
    }

    /// The same for samples at given frame indices.
    public static func sineResidual(_ x: [(index: Int, value: Float)], frequency: Double, rate: Double) -> [Double] {
        let w = 2 * Double.pi * frequency / rate
        let basis = x.map { [sin(w * Double($0.index)), cos(w * Double($0.index)), 1.0] }
        var m = [[Double]](repeating: [0, 0, 0], count: 3), v = [0.0, 0, 0]
        for (row, sample) in zip(basis, x) {
            for i in 0..<3 {
                v[i] += row[i] * Double(sample.value)
                for j in 0..<3 { m[i][j] += row[i] * row[j] }
            }
        }
        let c = solve3(m, v)
        return zip(basis, x).map { row, sample in Double(sample.value) - (c[0] * row[0] + c[1] * row[1] + c[2] * row[2]) }
    }

    /// Cramer's rule for a 3 × 3 system.
    public static func solve3(_ m: [[Double]], _ v: [Double]) -> [Double] {
        func det(_ a: [[Double]]) -> Double {
            a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0])
                + a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0])
        }
        let d = det(m)
        return (0..<3).map { k in det(m.enumerated().map { i, row in row.enumerated().map { j, e in j == k ? v[i] : e } }) / d }
    }
}
