import Glibc
import JackwaveDSP
import Testing

/// Renders `frames` samples in blocks of `block` (JACK-sized calls, so block edges land
/// everywhere relative to fades and ramps).
private func render(_ g: inout ToneGenerator, _ frames: Int, block: Int = 128) -> [Float] {
    var out = [Float](repeating: .nan, count: frames)
    out.withUnsafeMutableBufferPointer { b in
        var i = 0
        while i < frames {
            let n = min(block, frames - i)
            g.process(into: b.baseAddress! + i, count: n)
            i += n
        }
    }
    return out
}

/// The largest |x[n+1] − x[n]| over the signal.
private func largestStep(_ x: [Float]) -> Double {
    var worst = 0.0
    for n in x.indices.dropFirst() { worst = max(worst, abs(Double(x[n]) - Double(x[n - 1]))) }
    return worst
}

/// The steady tone's largest possible sample-to-sample step: the sine's slope `A·2πf/sr`
/// (the true largest step, `2A·sin(πf/sr)`, is a hair below it).
private func steadyStepBound(frequency: Double, amplitude: Double, sampleRate: Double) -> Double {
    amplitude * 2 * Double.pi * frequency / sampleRate
}

/// Margin allowed over the steady tone's largest step: 1 %. The fades and ramps here add
/// well under 0.1 % (their slopes are two orders of magnitude below the sine's), so 1 %
/// fails on any real discontinuity while leaving room for Float rounding.
private let stepMargin = 1.01

/// Expects the largest step of `x` to stay within `stepMargin` of `bound`, and prints the
/// ratio (the figure the DSP report quotes).
private func expectSmooth(_ x: [Float], bound: Double, _ what: String,
                          sourceLocation: SourceLocation = #_sourceLocation) {
    let ratio = largestStep(x) / bound
    print("ToneGenerator: worst step / steady bound, \(what): \(ratio)")
    #expect(ratio <= stepMargin, "\(what)", sourceLocation: sourceLocation)
}

/// A reference phase that is exact: the nominal frequency is `p/q` cycles per sample, so
/// the phase of sample n is `(n·p mod q)/q` cycles, computed in integers.
private struct Reference {
    let p: Int, q: Int
    func angle(_ n: Int) -> Double { 2 * Double.pi * Double((n * p) % q) / Double(q) }
}

/// Least-squares fit of `a·cos θ + b·sin θ` (θ the reference phase) to `x[start..<start+count]`.
/// A tone `A·sin(θ + φ)` gives `a = A sin φ`, `b = A cos φ`.
private func fitFundamental(_ x: [Float], _ ref: Reference, start: Int, count: Int)
    -> (a: Double, b: Double)
{
    var cc = 0.0, cs = 0.0, ss = 0.0, xc = 0.0, xs = 0.0
    for n in start..<(start + count) {
        let t = ref.angle(n), c = cos(t), s = sin(t), v = Double(x[n])
        cc += c * c; cs += c * s; ss += s * s; xc += v * c; xs += v * s
    }
    let det = cc * ss - cs * cs
    return ((xc * ss - xs * cs) / det, (xs * cc - xc * cs) / det)
}

/// Frequency measured by a phase fit: the phase relative to the nominal reference in
/// successive windows, unwrapped, then regressed linearly against time. Returns Hz.
private func measureFrequency(_ x: [Float], _ ref: Reference, sampleRate: Double,
                              start: Int, window: Int) -> Double {
    var times = [Double](), phases = [Double]()
    var w = start
    while w + window <= x.count {
        let (a, b) = fitFundamental(x, ref, start: w, count: window)
        var phi = atan2(a, b)
        if let last = phases.last { // unwrap
            while phi - last > Double.pi { phi -= 2 * Double.pi }
            while phi - last < -Double.pi { phi += 2 * Double.pi }
        }
        times.append(Double(w) + Double(window - 1) / 2)
        phases.append(phi)
        w += window
    }
    let tMean = times.reduce(0, +) / Double(times.count)
    let pMean = phases.reduce(0, +) / Double(phases.count)
    var num = 0.0, den = 0.0
    for (t, p) in zip(times, phases) { num += (t - tMean) * (p - pMean); den += (t - tMean) * (t - tMean) }
    let radiansPerSample = num / den
    let nominal = Double(ref.p) / Double(ref.q) * sampleRate
    return nominal + radiansPerSample / (2 * Double.pi) * sampleRate
}

@Suite("ToneGenerator")
struct ToneGeneratorTests {
    static let rate = 48_000.0
    static let fade = 480 // 10 ms

    @Test("a 997.5 Hz tone at 48 kHz measures 997.5 Hz within 1e-9 relative over 10 s")
    func frequencyIsExact() {
        var g = ToneGenerator(sampleRate: Self.rate, frequency: 997.5, amplitude: 0.5, fadeFrames: Self.fade)
        let x = render(&g, 480_000, block: 256)
        // 997.5 / 48000 = 1995 / 96000 cycles per sample.
        let f = measureFrequency(x, Reference(p: 1995, q: 96_000), sampleRate: Self.rate,
                                 start: 4800, window: 4800)
        let relative = abs(f - 997.5) / 997.5
        print("ToneGenerator: measured \(f) Hz for 997.5 Hz, relative error \(relative)")
        #expect(relative < 1e-9)
    }

    @Test("a 440 Hz tone at 48 kHz is 440 Hz, not the 440.37 Hz of a looped one-period buffer")
    func fourFortyIsNotFourFortyPointThreeSeven() {
        var g = ToneGenerator(sampleRate: Self.rate, frequency: 440, amplitude: 0.5, fadeFrames: Self.fade)
        let x = render(&g, 48_000)
        // 440 / 48000 = 11 / 1200 cycles per sample.
        let f = measureFrequency(x, Reference(p: 11, q: 1200), sampleRate: Self.rate, start: 4800, window: 4800)
        #expect(abs(f - 440) < 1e-6)
        #expect(abs(f - 440.37) > 0.3)
    }

    @Test("THD+N of the steady tone is below −120 dB")
    func thdPlusNoise() {
        var g = ToneGenerator(sampleRate: Self.rate, frequency: 997.5, amplitude: 0.5, fadeFrames: Self.fade)
        let x = render(&g, 96_000)
        let ref = Reference(p: 1995, q: 96_000)
        let start = 48_000, count = 48_000 // one steady second, after the fade-in
        let (a, b) = fitFundamental(x, ref, start: start, count: count)
        var fundamental = 0.0, residual = 0.0
        for n in start..<(start + count) {
            let t = ref.angle(n)
            let fit = a * cos(t) + b * sin(t)
            fundamental += fit * fit
            residual += (Double(x[n]) - fit) * (Double(x[n]) - fit)
        }
        let db = 10 * log10(residual / fundamental)
        print("ToneGenerator: THD+N \(db) dB")
        #expect((a * a + b * b).squareRoot() > 0.4999 && (a * a + b * b).squareRoot() < 0.5001)
        #expect(db < -120)
    }

    @Test("the fade-in starts at exactly 0 at frame 0 and its envelope never decreases")
    func fadeInEnvelope() {
        // At a quarter of the rate the phase is exactly 0, ¼, ½, ¾: odd samples are ±envelope.
        var g = ToneGenerator(sampleRate: Self.rate, frequency: Self.rate / 4, amplitude: 1,
                              fadeFrames: Self.fade)
        #expect(g.envelope == 0)
        let x = render(&g, 2 * Self.fade, block: 100)
        #expect(x[0] == 0)
        // Frame 1 is one step up the raised cosine from 0.
        #expect(abs(x[1]) == Float(0.5 - 0.5 * cos(Double.pi / Double(Self.fade))))
        let envelope = stride(from: 1, to: x.count, by: 2).map { abs(x[$0]) }
        #expect(zip(envelope, envelope.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(envelope.first! > 0 && envelope.first! < 1e-4)
        // Full level from frame `fade` on (the first odd frame at or after it).
        #expect(stride(from: Self.fade + 1, to: x.count, by: 2).allSatisfy { abs(x[$0]) == 1 })
        #expect(abs(x[Self.fade - 1]) < 1)
    }

    @Test("stop(endingAtFrame: D) leaves the last nonzero sample at D−1 and zeros from D on")
    func scheduledStop() {
        let d = 10_000
        var g = ToneGenerator(sampleRate: Self.rate, frequency: 997.5, amplitude: 0.5, fadeFrames: Self.fade)
        g.stop(endingAtFrame: Int64(d))
        var reference = ToneGenerator(sampleRate: Self.rate, frequency: 997.5, amplitude: 0.5,
                                      fadeFrames: Self.fade)
        let head = render(&g, d - 1, block: 256)
        let plain = render(&reference, d)
        #expect(!g.isFinished)
        let tail = render(&g, 3000, block: 256)
        #expect(g.isFinished)
        let x = head + tail
        #expect(x[d - 1] != 0)
        #expect(x[d...].allSatisfy { $0 == 0 })
        // The fade occupies the `fade` frames before D and no more: the tone is untouched up
        // to frame D − fade (still at full level), reduced from the next frame on.
        #expect(x[0...(d - Self.fade)] == plain[0...(d - Self.fade)])
        #expect(abs(x[d - Self.fade + 1]) < abs(plain[d - Self.fade + 1]))
    }

    @Test("stop() fades out from now over fadeFrames, then every sample is 0 and the tone is finished")
    func stopNow() {
        var g = ToneGenerator(sampleRate: Self.rate, frequency: 997.5, amplitude: 0.5, fadeFrames: Self.fade)
        var reference = g
        _ = render(&g, 5000)
        let plain = render(&reference, 5000 + Self.fade)
        g.stop()
        #expect(!g.isFinished)
        // The fade is `fade` frames, from frame 5000 (still at full level) to 5000 + fade − 1
        // (one raised-cosine step above 0), as with stop(endingAtFrame: 5000 + fade).
        let x = render(&g, Self.fade - 1)
        #expect(!g.isFinished)
        let last = render(&g, 1)
        #expect(g.isFinished)
        let y = render(&g, 1000)
        #expect(x[0] == plain[5000])
        #expect(abs(x[1]) < abs(plain[5001]))
        #expect(last[0] != 0)
        #expect(y.allSatisfy { $0 == 0 })
        g.setPaused(false); g.setAmplitude(1); g.setFrequency(440)
        #expect(render(&g, 1000).allSatisfy { $0 == 0 })
    }

    @Test("fadeFrames 0 starts and stops hard: full level at once, zero from the end frame")
    func noFade() {
        var g = ToneGenerator(sampleRate: Self.rate, frequency: Self.rate / 4, amplitude: 1, fadeFrames: 0)
        g.stop(endingAtFrame: 101)
        let x = render(&g, 200, block: 64)
        #expect(abs(x[1]) == 1 && abs(x[99]) == 1)
        #expect(x[101...].allSatisfy { $0 == 0 })
        #expect(g.isFinished)
    }

    @Test("starting a tone makes no step larger than the steady tone's largest (+1 %)")
    func startIsSmooth() {
        var g = ToneGenerator(sampleRate: Self.rate, frequency: 997.5, amplitude: 0.5, fadeFrames: Self.fade)
        let x = render(&g, 4800)
        let bound = steadyStepBound(frequency: 997.5, amplitude: 0.5, sampleRate: Self.rate)
        expectSmooth([0] + x, bound: bound, "start")
        #expect(largestStep(x) > bound * 0.99) // the bound is tight, so the test has teeth
    }

    @Test("stopping a tone makes no step larger than the steady tone's largest (+1 %)")
    func stopIsSmooth() {
        var g = ToneGenerator(sampleRate: Self.rate, frequency: 997.5, amplitude: 0.5, fadeFrames: Self.fade)
        var x = render(&g, 4817)
        g.stop()
        x += render(&g, 2000)
        expectSmooth(x, bound: steadyStepBound(frequency: 997.5, amplitude: 0.5, sampleRate: Self.rate), "stop")
        #expect(x.last == 0)
    }

    @Test("pausing and resuming, also mid-fade, makes no step larger than the steady tone's (+1 %)")
    func pauseResumeIsSmooth() {
        var g = ToneGenerator(sampleRate: Self.rate, frequency: 997.5, amplitude: 0.5, fadeFrames: Self.fade)
        var x = render(&g, Self.fade / 2, block: 64)   // pause during the fade-in
        g.setPaused(true)
        x += render(&g, Self.fade / 4, block: 64)
        g.setPaused(false)                               // resume during the fade-out
        x += render(&g, 3 * Self.fade, block: 64)
        g.setPaused(true)                                // pause at full level
        x += render(&g, Self.fade / 3, block: 64)
        g.setPaused(false)                               // resume mid fade-out
        x += render(&g, Self.fade / 5, block: 64)
        g.setPaused(true)                                // pause mid fade-in
        let silentFrom = x.count + Self.fade
        x += render(&g, 3 * Self.fade, block: 64)
        #expect(x[silentFrom...].allSatisfy { $0 == 0 })  // a finished pause is silence
        g.setPaused(false)                               // resume from silence
        x += render(&g, 3 * Self.fade, block: 64)
        expectSmooth([0] + x, bound: steadyStepBound(frequency: 997.5, amplitude: 0.5, sampleRate: Self.rate),
                     "pause/resume")
        #expect(!g.isFinished)
    }

    @Test("a resumed tone is the tone that was never paused, to within 1e-6 (the phase runs on)")
    func pauseKeepsPhase() {
        var g = ToneGenerator(sampleRate: Self.rate, frequency: 997.5, amplitude: 0.5, fadeFrames: Self.fade)
        var reference = g
        _ = render(&g, 3000)
        g.setPaused(true)
        _ = render(&g, 2000)
        g.setPaused(false)
        _ = render(&g, Self.fade)
        let resumed = render(&g, 4000)
        let plain = render(&reference, 3000 + 2000 + Self.fade + 4000)
        // Not bit for bit: the resumed tone's rotors are anchored where it became steady
        // again, the other's on the 1024-frame grid; they round differently by ~1e-13, so a
        // sample may land one `Float` step (3e-8 at this level) apart. A phase that did
        // not run on would be off by up to the amplitude.
        let worst = zip(plain.suffix(4000), resumed).map { abs($0 - $1) }.max() ?? 1
        #expect(worst <= 1e-6)
    }

    @Test("the output is the same sample for sample however the frames are split into calls",
          arguments: [1, 3, 7, 64, 100, 1023, 1025, 4096])
    func outputIndependentOfBlockSize(block: Int) {
        // A fade of 479 frames and an end at 20 001: the steady stretch starts and ends
        // off the rotor lanes' 8-frame groups, and the 1024-frame anchors fall inside groups.
        func run(_ block: Int) -> [Float] {
            var g = ToneGenerator(sampleRate: Self.rate, frequency: 997.5, amplitude: 0.5, fadeFrames: 479)
            g.stop(endingAtFrame: 20_001)
            return render(&g, 21_000, block: block)
        }
        #expect(run(block) == run(21_000))
    }

    @Test("a semitone frequency change is phase-continuous: no step above the higher tone's (+1 %)")
    func frequencyChangeIsSmooth() {
        let f1 = 997.5, f2 = 997.5 * pow(2, 1.0 / 12)
        var g = ToneGenerator(sampleRate: Self.rate, frequency: f1, amplitude: 0.5, fadeFrames: Self.fade)
        var x = render(&g, 5003, block: 100)
        for _ in 0..<10 { // up and down, at many phases
            g.setFrequency(g.frequency == f1 ? f2 : f1)
            x += render(&g, 1237, block: 100)
        }
        expectSmooth(x, bound: steadyStepBound(frequency: f2, amplitude: 0.5, sampleRate: Self.rate), "semitone")
        #expect(g.frequency == f1)
    }

    @Test("a +6 dB volume change ramps: no step above the louder tone's largest (+1 %)")
    func volumeChangeIsSmooth() {
        let a1: Float = 0.25, a2 = Float(0.25 * pow(10, 6.0 / 20))
        var g = ToneGenerator(sampleRate: Self.rate, frequency: 997.5, amplitude: a1, fadeFrames: Self.fade)
        var x = render(&g, 5003, block: 100)
        for _ in 0..<10 {
            g.setAmplitude(g.amplitude == a1 ? a2 : a1)
            x += render(&g, 611, block: 100)
        }
        expectSmooth(x, bound: steadyStepBound(frequency: 997.5, amplitude: Double(a2), sampleRate: Self.rate),
                     "+6 dB")
    }

    @Test("a volume change reaches the new amplitude after the 5 ms ramp, and not at once")
    func volumeRampReachesTarget() throws {
        var g = ToneGenerator(sampleRate: Self.rate, frequency: 997.5, amplitude: 0.25, fadeFrames: Self.fade)
        _ = render(&g, 4800)
        g.setAmplitude(0.5)
        #expect(g.amplitudeRampFrames == 240)
        let ramp = render(&g, g.amplitudeRampFrames)
        let after = render(&g, 4800)
        let early = try #require(ramp.prefix(40).map { abs($0) }.max(), "a ramp of \(ramp.count) frames")
        #expect(early < 0.3) // one sixth of the way: about 0.29
        #expect(abs(after.map { abs($0) }.max()! - 0.5) < 1e-4)
    }
}
