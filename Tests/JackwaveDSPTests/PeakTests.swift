import JackwaveDSP
import Testing

/// The plain loop `Peak.of` must agree with bit for bit.
private func referencePeak(_ x: [Float]) -> Float {
    var peak: Float = 0
    for v in x { peak = max(peak, abs(v)) }
    return peak
}

private func simdPeak(_ x: [Float]) -> Float {
    x.withUnsafeBufferPointer { Peak.of($0.baseAddress ?? UnsafePointer(bitPattern: 16)!, count: $0.count) }
}

private let lengths = [0, 1, 7, 8, 15, 16, 17, 1000, 1023]

@Suite("Peak.of")
struct PeakTests {
    @Test("Peak.of equals the plain max-of-abs loop on random blocks of every length class",
          arguments: lengths)
    func peakMatchesReferenceOnRandomData(length: Int) {
        var rng = SplitMix64(seed: UInt64(length) &+ 1)
        for _ in 0..<50 {
            let x = (0..<length).map { _ in Float.random(in: -1...1, using: &rng) }
            #expect(simdPeak(x).bitPattern == referencePeak(x).bitPattern)
        }
    }

    @Test("Peak.of reads an empty block as 0")
    func peakOfEmptyBlockIsZero() {
        #expect(simdPeak([]) == 0)
    }

    @Test("Peak.of of an all-negative block is the largest magnitude, positive", arguments: lengths.dropFirst())
    func peakOfNegativeValues(length: Int) {
        let x = (0..<length).map { -Float($0 % 37 + 1) / 64 }
        let p = simdPeak(x)
        #expect(p == referencePeak(x))
        #expect(p > 0)
    }

    @Test("Peak.of of all zeros (and negative zeros) is +0", arguments: lengths)
    func peakOfZeros(length: Int) {
        let x = (0..<length).map { $0 % 2 == 0 ? Float(0) : -Float(0) }
        let p = simdPeak(x)
        #expect(p == 0)
        #expect(p.sign == .plus)
    }

    @Test("Peak.of finds a single full-scale +1 or −1 sample at every position", arguments: [Float(1), -1])
    func peakFindsFullScaleAnywhere(value: Float) {
        for length in [1, 17, 1023] {
            for at in 0..<length {
                var x = [Float](repeating: 0.25, count: length)
                x[at] = value
                #expect(simdPeak(x) == 1, "length \(length), position \(at)")
            }
        }
    }

    @Test("Peak.of sees a peak that sits in the scalar tail after the vector loops")
    func peakInTail() {
        // 1023 = 63·16 + 3·4 + 3: the last three samples are handled one by one.
        var x = [Float](repeating: -0.5, count: 1023)
        x[1022] = -0.875
        #expect(simdPeak(x) == 0.875)
        x[1022] = 0; x[1020] = 0.75 // a scalar-tail sample that is not the last
        #expect(simdPeak(x) == 0.75)
        x[1020] = 0; x[1017] = 0.625 // in the four-wide loop
        #expect(simdPeak(x) == 0.625)
    }

    @Test("Peak.of reads from an unaligned pointer")
    func peakUnaligned() {
        var rng = SplitMix64(seed: 99)
        let x = (0..<1040).map { _ in Float.random(in: -1...1, using: &rng) }
        x.withUnsafeBufferPointer { b in
            for offset in 1..<4 {
                let slice = Array(b[offset..<(offset + 1000)])
                #expect(Peak.of(b.baseAddress! + offset, count: 1000) == referencePeak(slice))
            }
        }
    }

    @Test("Peak.of ignores NaN samples, like the reference loop, and counts infinities")
    func peakNaNAndInfinity() {
        var x = [Float](repeating: 0.5, count: 40)
        x[3] = .nan; x[20] = -.nan; x[39] = .nan
        #expect(simdPeak(x) == 0.5)
        #expect(referencePeak(x) == 0.5)
        #expect(simdPeak([Float](repeating: .nan, count: 21)) == 0)
        x[30] = -.infinity
        #expect(simdPeak(x) == .infinity)
    }
}
