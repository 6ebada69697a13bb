import JackwaveEngine
import JackwaveHost
import JackwaveMeasure

extension MeasureReport {
    /// One JSON object with every figure. The keys scripts read first describe channel 1
    /// (`latency_frames`, `declared_latency_frames`, `response`, `harmonics`, `thd_n_db`,
    /// `noise_db`, `dynamic_range_db`), with `crosstalk_db` the whole matrix; `channels`
    /// holds the same keys for every channel. `null` where there is no figure (−∞, a path
    /// with no response).
    func json() -> String {
        var fields = [
            "\"jackwave_version\":\(quoted(Jackwave.version))",
            "\"date\":\(quoted(date.iso8601))",
            "\"server\":{\"sample_rate\":\(capture.sampleRate),\"period\":\(capture.period),\"libjack\":\(quoted(JackClient.libraryVersion))}",
            "\"settings\":\(settings())",
        ]
        let perChannel = (0..<channels).map(channel)
        if let first = perChannel.first {
            // Channel 1's keys at the top level, for scripts that measure one path.
            fields += first.filter { !$0.hasPrefix("\"channel\"") && !$0.hasPrefix("\"ports\"") }
        }
        fields.append("\"crosstalk_db\":[" + result.crosstalk.map { row in "[" + row.map { $0.map { number($0, 3) } ?? "null" }.joined(separator: ",") + "]" }
            .joined(separator: ",") + "]")
        fields.append("\"channels\":[" + perChannel.map { "{" + $0.joined(separator: ",") + "}" }.joined(separator: ",") + "]")
        fields.append("\"disturbances\":{\"attempts\":\(capture.attempts),\"xruns\":\(capture.xruns),\"skipped_frames\":\(capture.skippedFrames),\"unresolved\":\(capture.disturbance.map(quoted) ?? "null"),"
                      + "\"start_frame_time\":\(capture.startFrameTime.map(String.init) ?? "null")}")
        fields.append("\"problems\":[" + result.problems.map(quoted).joined(separator: ",") + "]")
        return "{" + fields.joined(separator: ",") + "}\n"
    }

    /// The settings and the programme's layout.
    func settings() -> String {
        let s = plan.settings, sweep = plan.sweep
        return "{\"channels\":\(channels),\"quick\":\(s.quick),\"level_dbfs\":\(number(s.levelDBFS)),"
            + "\"tone_hz\":\(number(s.toneFrequency)),\"quiet_tone_dbfs\":\(number(MeasurementPlan.quietToneLevel)),"
            + "\"max_latency_s\":\(number(s.maximumLatencySeconds)),\"programme_s\":\(number(plan.seconds)),"
            + "\"sweep\":{\"start_hz\":\(number(sweep.startFrequency)),\"end_hz\":\(number(sweep.endFrequency)),"
            + "\"seconds\":\(number(sweep.seconds)),\"rate_s\":\(number(sweep.rate))}}"
    }

    /// Channel c's fields (without braces).
    func channel(_ c: Int) -> [String] {
        let r = result.channels[c], p = ports(c)
        var fields = [
            "\"channel\":\(c + 1)",
            "\"ports\":{\"output\":\(quoted(p.output)),\"to\":\(p.destination.map(quoted) ?? "null"),"
                + "\"from\":\(quoted(p.source)),\"input\":\(quoted(p.input))}",
            "\"latency_frames\":\(r.latency.map { number($0.frames, 4) } ?? "null")",
            "\"latency_ms\":\(r.latency.map { number($0.frames / plan.sampleRate * 1000, 5) } ?? "null")",
            "\"declared_latency_frames\":\(declaredFrames(c).map(String.init) ?? "null")",
        ]
        if c < capture.declared.count {
            let d = capture.declared[c]
            fields.append("\"declared_latency\":{\"capture\":[\(d.capture.minimum),\(d.capture.maximum)],\"playback\":[\(d.playback.minimum),\(d.playback.maximum)]}")
        }
        fields += [
            "\"excess_latency_frames\":\(excessFrames(c).map { number($0, 4) } ?? "null")",
            "\"polarity\":\(r.latency.map { quoted($0.inverted ? "inverted" : "normal") } ?? "null")",
            "\"peak_to_noise_db\":\(r.latency.map { number($0.peakToNoiseDB, 1) } ?? "null")",
            "\"response\":[" + r.response.map { "{\"hz\":\(number($0.hz, 3)),\"db\":\(number($0.db, 5)),\"deg\":\(number($0.deg, 4))}" }
                .joined(separator: ",") + "]",
            "\"harmonics\":[" + r.harmonics.map { curve in
                "{\"order\":\(curve.order),\"points\":[" + curve.points.map { "{\"hz\":\(number($0.hz, 3)),\"db\":\(number($0.db, 3))}" }
                    .joined(separator: ",") + "]}"
            }.joined(separator: ",") + "]",
            "\"thd_n_db\":\(r.thdN.map { number($0.thdNDB, 3) } ?? "null")",
            "\"thd_n\":" + (r.thdN.map(tone) ?? "null"),
            "\"noise_db\":\(r.noiseDBFS.map { number($0, 3) } ?? "null")",
            "\"dynamic_range_db\":\(r.dynamicRangeDB.map { number($0, 3) } ?? "null")",
            "\"quiet_tone\":" + (r.quietTone.map(tone) ?? "null"),
        ]
        return fields
    }

    /// A tone's measure.
    func tone(_ t: ToneMeasure) -> String {
        "{\"hz\":\(number(t.hz, 6)),\"fundamental_dbfs\":\(number(t.fundamentalDBFS, 4)),\"residual_dbfs\":\(number(t.residualDBFS, 3)),"
            + "\"thd_n_db\":\(number(t.thdNDB, 3)),\"thd_n_percent\":\(number(t.thdNPercent, 6))}"
    }

    /// A JSON number with `decimals` places, `null` for what JSON cannot carry.
    func number(_ x: Double, _ decimals: Int) -> String { x.isFinite ? LoudnessReport.fixed(x, decimals: decimals) : "null" }
    func number(_ x: Double) -> String { x.isFinite ? x.plainText : "null" }
    func quoted(_ s: String) -> String { LoudnessReport.quoted(s) }
}
