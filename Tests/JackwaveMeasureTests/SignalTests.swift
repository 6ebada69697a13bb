import JackwaveTestSupport
import Testing
@testable import JackwaveMeasure

@Suite("The measurement's signals and fits")
struct SignalTests {
    @Test("the sweep is synchronized: its k-th harmonic is itself L·ln k earlier, to 1e-9")
    func synchronized() {
        let sweep = ExponentialSweep(sampleRate: 48000, startFrequency: 10, endFrequency: 22_800, nominalSeconds: 2.25, amplitude: 1)
        #expect(abs(sweep.rate - 0.3) < 1e-12 && sweep.frames == Int((0.3 * log(2280.0) * 48000).rounded(.up)))
        let phase = { (t: Double) in 2 * Double.pi * 10 * sweep.rate * expm1(t / sweep.rate) }
        for k in 2...5 {
            let advance = sweep.rate * log(Double(k))
            let worst = stride(from: 0.0, to: 1.5, by: 0.013).map { t in abs(sin(Double(k) * phase(t)) - sin(phase(t + advance))) }.max()!
            #expect(worst < 1e-9, "k = \(k): \(worst)")
        }
    }

    @Test("the fit finds a tone whose clock is 50 ppm off, and leaves only the noise")
    func sineFit() {
        let fs = 48000.0, f = 997 * (1 + 50e-6)
        var state: UInt64 = 5
        let x = (0..<20000).map { n in 0.3 * sin(2 * Double.pi * f * Double(n) / fs + 0.4) + 0.01 + 1e-4 * SimulatedDevice.gaussian(&state) }
        let fit = SineFit(x, frequency: 997, sampleRate: fs)
        #expect(abs(fit.omega * fs / (2 * Double.pi) - f) < 1e-4)
        #expect(abs(fit.amplitude - 0.3) < 1e-5 && abs(fit.offset - 0.01) < 1e-5)
        let residual = fit.residual(of: x)
        let rms = (residual.reduce(0) { $0 + $1 * $1 } / Double(residual.count)).squareRoot()
        #expect(abs(rms - 1e-4) < 3e-6)
    }

    @Test("an FFT and its inverse give the signal back, and a cosine lands in its bin")
    func fft() throws {
        let fft = try RealFFT(size: 1000)
        let x = (0..<1000).map { cos(2 * Double.pi * 50 * Double($0) / 1000) }
        let spectrum = fft.forward(x)
        #expect(spectrum.count == 501 && abs(spectrum[50].re - 500) < 1e-9 && abs(spectrum[49].magnitude) < 1e-9)
        let back = fft.inverse(spectrum)
        #expect(zip(x, back).allSatisfy { abs($0 - $1) < 1e-12 })
    }

    @Test("the 1/24-octave grid runs from 20.2 Hz through 1 kHz to 19.7 kHz")
    func grid() throws {
        let f = FrequencyGrid.frequencies(upTo: 20_000)
        #expect(f.count == 239 && f.contains(1000) && f.first! >= 20 && f.last! <= 20_000)
        let first = try #require(f.element(at: 0), "\(f.count) frequencies"), second = try #require(f.element(at: 1), "\(f.count) frequencies")
        #expect(abs(second / first - pow(2, 1.0 / 24)) < 1e-12)
    }

    @Test("a full plan for two channels at 48 kHz plays for 8.8 s, --quick for 4.5 s; 1.6 s less with --max-latency 0.1")
    func planLength() {
        var settings = MeasurementSettings()
        let full = MeasurementPlan(settings: settings, sampleRate: 48000).seconds
        settings.quick = true
        let quick = MeasurementPlan(settings: settings, sampleRate: 48000).seconds
        settings.maximumLatencySeconds = 0.1
        let short = MeasurementPlan(settings: settings, sampleRate: 48000).seconds
        #expect(abs(full - 8.77) < 0.05 && abs(quick - 4.50) < 0.05 && abs(quick - short - 1.6) < 0.01, "\(full) \(quick) \(short)")
    }
}
import Glibc

@Suite("The capture's check for lost cycles")
struct CaptureCheckTests {
    @Test("a cycle of digital silence amid a loud signal is found, with its place and length")
    func lostCycle() {
        var x = (0..<20_000).map { Float(0.5 * sin(Double($0) * 0.1)) }
        for n in 4096..<4352 { x[n] = 0 }
        let found = CaptureCheck.lostCycle(in: [[Float](repeating: 0.1, count: 100), x])
        #expect(found?.input == 1 && found?.frame == 4096 && found?.frames == 256)
    }

    @Test("the programme's own silences, its fades and its zero crossings are not lost cycles")
    func programmeIsClean() {
        var settings = MeasurementSettings()
        settings.quick = true
        settings.maximumLatencySeconds = 0.01
        #expect(CaptureCheck.lostCycle(in: MeasurementPlan(settings: settings, sampleRate: 48000).programme()) == nil)
    }
}
