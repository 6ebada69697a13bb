import JackwaveMeasure
import JackwavePlot

extension MeasureReport {
    /// Draws the report to `path` (.png or .svg), replacing a file there only if `force`;
    /// nil, or why it failed.
    func plot(to path: String, force: Bool) -> String? {
        do throws(PlotError) {
            try MeasurementPlot.draw(picture(), to: path, existing: force ? .replace : .refuse)
            return nil
        } catch {
            return error.message.line
        }
    }

    /// The curves of every channel with a response.
    func picture() -> MeasurementPicture {
        let measured = result.channels.enumerated().filter { $0.element.latency != nil }
        let responses = measured.map { c, r in
            MeasurementPicture.Curve(x: r.response.map(\.hz), y: r.response.map(\.db), label: "ch \(c + 1) response")
        }
        let harmonics = measured.map { c, r in
            r.harmonics.map { MeasurementPicture.Curve(x: $0.points.map(\.hz), y: $0.points.map(\.db), label: "ch \(c + 1) H\($0.order)") }
        }
        let impulses = measured.map { c, r -> MeasurementPicture.Curve in
            let peak = r.impulse.map(abs).max() ?? 1
            let ms = 1000 / plan.sampleRate
            return MeasurementPicture.Curve(x: r.impulse.indices.map { Double($0 + r.impulseStart) * ms },
                                            y: r.impulse.map { peak > 0 ? $0 / peak : 0 },
                                            label: "ch \(c + 1): " + String(printf: "%.3f frames", r.latency!.frames))
        }
        let title = ["jackwave measure", "\(capture.sampleRate) Hz", "\(channels) channel\(channels == 1 ? "" : "s")", date.iso8601]
        return MeasurementPicture(title: title.joined(separator: "  ·  "), responses: responses, harmonics: harmonics, impulses: impulses)
    }
}
