import Testing
@testable import JackwaveMeasure

@Suite("Harmonics, THD+N and noise against a polynomial's closed form")
struct DistortionTests {
    /// H2 at −40, H3 at −60, H4 at −80, H5 at −100 dBc for a −6 dBFS sine.
    static let polynomial = [1, 0.04, 0.016, 0.0064, 0.00256]
    /// −6 dBFS, the sweep's and the tone's peak.
    static let amplitude = pow(10, -6.0 / 20)
    /// −120 dBFS of noise over 20 Hz–20 kHz.
    static let noiseRMS = pow(10, -120.0 / 20) / (2 * 19_980 / 24_000.0).squareRoot()

    @Test("each harmonic from 2 to 5 within 0.2 dB of the closed form, down to −100 dBc, at every point reported")
    func harmonics() throws {
        var device = SimulatedDevice(channels: [.init(polynomial: Self.polynomial, noiseRMS: Self.noiseRMS)])
        device.delay = 100.3
        device.seed = 3
        let (_, result) = try Fixture.measure(device, settings: Fixture.settings())
        let curves = try #require(result.channels.first, "no channel measured").harmonics
        #expect(curves.map(\.order) == [2, 3, 4, 5])
        for curve in curves {
            let truth = Truth.harmonicDB(curve.order, polynomial: Self.polynomial, amplitude: Self.amplitude)
            #expect(curve.points.count > 170 / curve.order, "H\(curve.order): \(curve.points.count) points")
            let worst = try #require(curve.points.max { abs($0.db - truth) < abs($1.db - truth) }, "H\(curve.order): no points")
            #expect(abs(worst.db - truth) < 0.2, "H\(curve.order) truth \(truth): \(worst)")
            // Reported from about 50 Hz, up to where the harmonic reaches 20 kHz.
            #expect(curve.points.first.map { $0.hz < 55 } == true
                    && curve.points.last.map { $0.hz * Double(curve.order) <= 20_000 } == true)
        }
    }

    @Test("THD+N at 997 Hz, −6 dBFS within 0.05 dB of the closed form; noise within 0.5 dB; dynamic range")
    func thdNAndNoise() throws {
        let noise = 1e-5   // −97 dBFS over the band
        var device = SimulatedDevice(channels: [.init(polynomial: Self.polynomial, noiseRMS: noise)])
        device.delay = 7.5
        let (plan, result) = try Fixture.measure(device, settings: Fixture.settings())
        let channel = try #require(result.channels.first, "no channel measured")
        let thdN = try #require(channel.thdN)
        let band = Truth.noiseDBFS(rms: noise, top: 20_000, sampleRate: Fixture.sampleRate)
        let c = (1...5).map { Truth.harmonic($0, polynomial: Self.polynomial, amplitude: Self.amplitude) }
        let residual = (1..<5).reduce(0) { $0 + c[$1] * c[$1] / 2 } + pow(10, band / 10) / 2
        let truth = 10 * log10(residual / (c[0] * c[0] / 2 + residual))
        #expect(abs(thdN.thdNDB - truth) < 0.05, "\(thdN.thdNDB) vs \(truth)")
        #expect(abs(thdN.hz - plan.settings.toneFrequency) < 1e-4)
        let floor = try #require(channel.noiseDBFS)
        #expect(abs(floor - band) < 0.5, "\(floor) vs \(band)")
        let range = try #require(channel.dynamicRangeDB)
        #expect(abs(range - (-band)) < 0.5, "\(range)")
    }

    @Test("with --quick, the harmonics are still within 0.2 dB, from about 150 Hz")
    func quickHarmonics() throws {
        let device = SimulatedDevice(channels: [.init(polynomial: Self.polynomial, noiseRMS: Self.noiseRMS / 10)])
        let (_, result) = try Fixture.measure(device, settings: Fixture.settings(quick: true))
        for curve in try #require(result.channels.first, "no channel measured").harmonics {
            let truth = Truth.harmonicDB(curve.order, polynomial: Self.polynomial, amplitude: Self.amplitude)
            #expect(curve.points.first.map { $0.hz < 170 } == true)
            let worst = try #require(curve.points.max { abs($0.db - truth) < abs($1.db - truth) }, "H\(curve.order): no points")
            #expect(abs(worst.db - truth) < 0.2, "H\(curve.order) truth \(truth): \(worst)")
        }
    }
}
import Glibc
