import Glibc
import JackwaveEngine
import JackwaveHost
import JackwaveMeasure
import JackwaveSoundFiles

/// Everything `jackwave measure` reports: the analysis' figures and what they were measured
/// on (ports, server, settings, date), laid out as text (`MeasureReport+Text`), JSON
/// (`MeasureReport+JSON`) and a picture (`MeasureReport+Plot`).
struct MeasureReport {
    /// One channel's ports: jackwave's output, where it goes (nil for nowhere), what its
    /// input records, and the input.
    struct Ports: Equatable {
        var output: String
        var destination: String?
        var source: String
        var input: String
    }

    let result: MeasurementResult
    let plan: MeasurementPlan
    let capture: MeasureCapture
    let ports: [Ports]
    let date: WallClockTime

    var channels: Int { ports.count }

    /// What JACK declares for channel c's path: its input's capture latency plus its output's
    /// playback latency (the maxima), frames.
    func declaredFrames(_ c: Int) -> Int? {
        guard c < capture.declared.count else { return nil }
        return capture.declared[c].capture.maximum + capture.declared[c].playback.maximum
    }

    /// The measured latency less the declared: what a DAW's latency compensation lacks.
    func excessFrames(_ c: Int) -> Double? {
        guard let measured = result.channels[c].latency?.frames, let declared = declaredFrames(c) else { return nil }
        return measured - Double(declared)
    }

    /// The connections of channel c.
    func ports(_ c: Int) -> Ports { ports[c] }

    /// The harmonic's level at 1 kHz (the nearest point within a twelfth of an octave).
    static func level(_ curve: HarmonicCurve, near hz: Double) -> Double? {
        guard let point = curve.points.min(by: { abs(log2($0.hz / hz)) < abs(log2($1.hz / hz)) }),
              abs(log2(point.hz / hz)) < 1.0 / 12 else { return nil }
        return point.db
    }
}
