@testable import JackwaveMeasure

/// Shared settings and the analysis of a simulated device, for the tests.
enum Fixture {
    static let sampleRate = 48000.0

    static func settings(channels: Int = 1, quick: Bool = false, level: Double = -6) -> MeasurementSettings {
        var s = MeasurementSettings()
        s.channels = channels
        s.quick = quick
        s.levelDBFS = level
        s.maximumLatencySeconds = 0.05
        return s
    }

    /// The plan, and what its analysis finds through `device`.
    static func measure(_ device: SimulatedDevice, settings: MeasurementSettings) throws -> (MeasurementPlan, MeasurementResult) {
        let plan = MeasurementPlan(settings: settings, sampleRate: sampleRate)
        let captured = try device.process(plan.programme())
        return (plan, try MeasurementAnalysis.analyze(captured, plan: plan))
    }

    /// A peaking equalizer (RBJ's cookbook): `gain` dB at `hz`, quality `q`.
    static func peaking(hz: Double, gain: Double, q: Double) -> [Double] {
        let a = pow(10, gain / 40), w = 2 * Double.pi * hz / sampleRate, alpha = sin(w) / (2 * q)
        let a0 = 1 + alpha / a
        return [(1 + alpha * a) / a0, -2 * cos(w) / a0, (1 - alpha * a) / a0, -2 * cos(w) / a0, (1 - alpha / a) / a0]
    }
}
import Glibc
