import Glibc

/// The analysis of a capture: every figure of a measurement, from the programme that was
/// played (`MeasurementPlan`) and what each input recorded meanwhile. Runs after the
/// capture, on the calling thread.
public enum MeasurementAnalysis {
    /// Below this peak-to-noise ratio a sweep's deconvolution shows no response.
    public static let responseThresholdDB = 30.0
    /// The impulse excerpt kept for pictures: from 2 ms before the peak to 10 ms after.
    static let impulseSeconds = (before: 0.002, after: 0.010)

    /// Analyses `captured` (one array per input, `plan.totalFrames` long).
    public static func analyze(_ captured: [[Float]], plan: MeasurementPlan) throws(MeasureError) -> MeasurementResult {
        let fs = plan.sampleRate
        let channels = plan.settings.channels
        let band = AnalysisBand(sampleRate: fs)
        let deconvolver = try SweepDeconvolver(sweep: plan.playedSweep(), segmentFrames: plan.sweepSegmentFrames, band: band)
        let frequencies = FrequencyGrid.frequencies(upTo: band.reportTop)
        let before = HarmonicAnalysis.neighbourFraction * plan.sweep.harmonicAdvance(order: 2)
        let responses = ResponseAnalysis(deconvolver: deconvolver, before: before, after: Double(plan.impulseTailFrames),
                                          frequencies: frequencies)
        let harmonics = HarmonicAnalysis(sweep: plan.sweep, band: band)
        let noiseFrames = (plan.latencyAllowanceFrames + plan.impulseTailFrames)...(deconvolver.size - Int(1.2 * plan.sweep.harmonicAdvance(order: 5)))
        let toneBand = FrequencyGrid.bottom...band.reportTop

        // impulse[c][j]: output c's sweep as input j recorded it.
        let impulses = (0..<channels).map { c in
            (0..<channels).map { j in
                let start = plan.sweepStarts[c]
                let segment = captured[j][start..<(start + plan.sweepSegmentFrames)].map(Double.init)
                return deconvolver.impulseResponse(of: segment)
            }
        }
        var results: [ChannelResult] = []
        var problems: [String] = []
        var centres: [Int?] = []
        var references: [[Complex]] = []
        for c in 0..<channels {
            let own = impulses[c][c]
            let latency = LatencyEstimate.estimate(own, deconvolver: deconvolver, searchFrames: plan.latencyAllowanceFrames,
                                                   window: responses.window(center: 0), noiseFrames: noiseFrames)
            guard latency.peakToNoiseDB >= responseThresholdDB else {
                problems.append("no response from output \(c + 1) reached input \(c + 1) within \(plan.settings.maximumLatencySeconds) s (\(latency.peakToNoiseDB.isFinite ? "peak \(Int(latency.peakToNoiseDB.rounded())) dB over the noise, \(Int(responseThresholdDB)) dB needed" : "digital silence"))")
                results.append(ChannelResult(latency: nil, response: [], harmonics: [], thdN: nil, quietTone: nil, impulse: [], impulseStart: 0))
                centres.append(nil)
                references.append([])
                continue
            }
            let centre = Int(latency.frames.rounded())
            let (points, transfer) = responses.points(of: own, center: centre, latency: latency.frames)
            let curves = harmonics.curves(of: own, latency: latency.frames, frequencies: frequencies, linear: transfer)
            let analysed = { (start: Int) throws(MeasureError) -> ToneMeasure? in
                let from = start + plan.toneAnalysisOffset + centre
                guard from + plan.toneAnalysisFrames <= captured[c].count else { return nil }
                let window = captured[c][from..<(from + plan.toneAnalysisFrames)].map(Double.init)
                return try ToneMeasure.measure(window, frequency: plan.settings.toneFrequency, sampleRate: fs, band: toneBand)
            }
            let first = Int((impulseSeconds.before * fs).rounded())
            let excerpt = (-first...Int((impulseSeconds.after * fs).rounded())).map { own[circular: centre + $0] }
            results.append(ChannelResult(latency: latency, response: points, harmonics: curves,
                                         thdN: try analysed(plan.toneStart), quietTone: try analysed(plan.quietToneStart),
                                         impulse: excerpt, impulseStart: -first))
            centres.append(centre)
            references.append(crosstalkBand.map { responses.transfer(of: own, center: centre, at: $0) })
        }
        var crosstalk = [[Double?]](repeating: [Double?](repeating: nil, count: channels), count: channels)
        for c in 0..<channels {
            guard let centre = centres[c] else { continue }
            let own = references[c].reduce(0) { $0 + $1.squaredMagnitude }
            for j in 0..<channels where j != c {
                let other = crosstalkBand.reduce(0) { $0 + responses.transfer(of: impulses[c][j], center: centre, at: $1).squaredMagnitude }
                crosstalk[c][j] = other == 0 ? -Double.infinity : 10 * log10(other / own)
            }
        }
        return MeasurementResult(channels: results, crosstalk: crosstalk, problems: problems)
    }

    /// The frequencies crosstalk is averaged over: the 1/24-octave points within 1/6 octave
    /// of 1 kHz (1/3 octave in all).
    static let crosstalkBand = (-4...4).map(FrequencyGrid.frequency(step:))
}
