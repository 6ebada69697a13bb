import Glibc

/// The programme a measurement plays, frame by frame, and where each part lies: after a
/// lead-in, a sweep on each output alone in turn (so that what reaches the other inputs is
/// crosstalk), each followed by silence for its response to ring out; then the THD+N tone
/// and the −60 dBFS tone on every output. Input frame `n` of the capture is what arrived in
/// the cycle that played output frame `n`, so a response's position is the path's latency.
public struct MeasurementPlan: Sendable, Equatable {
    public let settings: MeasurementSettings
    public let sampleRate: Double
    public let sweep: ExponentialSweep
    /// Frame at which channel c's sweep starts (c from 0).
    public let sweepStarts: [Int]
    /// Frames of each sweep's capture segment: the sweep, the latency allowance and the
    /// impulse response's window after its peak.
    public let sweepSegmentFrames: Int
    /// Frames kept after a linear impulse response's peak (its window's right side).
    public let impulseTailFrames: Int
    /// The THD+N tone and the −60 dBFS tone.
    public let tone: SineTone
    public let quietTone: SineTone
    public let toneStart: Int
    public let quietToneStart: Int
    /// Frames of a tone that are analysed, after its fade-in and a settling time.
    public let toneAnalysisFrames: Int
    /// Frames from a tone's start to its analysis window (before the latency is added).
    public let toneAnalysisOffset: Int
    /// Frames of the latency allowance (`maximumLatencySeconds`).
    public let latencyAllowanceFrames: Int
    /// The whole programme's (and capture's) length.
    public let totalFrames: Int

    /// The level of the AES17 dynamic-range tone, dBFS.
    public static let quietToneLevel = -60.0
    /// The sweep's first frequency, Hz: an octave below the lowest reported (20 Hz), so that
    /// 20 Hz lies past its fade-in.
    public static let sweepStart = 10.0
    /// The lead-in: silence before the first sweep.
    public static let leadInSeconds = 0.05

    /// Lays out the programme for `settings` at `sampleRate`.
    public init(settings: MeasurementSettings, sampleRate: Double) {
        self.settings = settings
        self.sampleRate = sampleRate
        let fs = sampleRate
        let frames = { (seconds: Double) in Int((seconds * fs).rounded()) }
        sweep = ExponentialSweep(sampleRate: fs, startFrequency: Self.sweepStart, endFrequency: Self.sweepEnd(sampleRate: fs),
                                 nominalSeconds: settings.quick ? 0.75 : 2.25,
                                 amplitude: pow(10, settings.levelDBFS / 20))
        latencyAllowanceFrames = frames(settings.maximumLatencySeconds)
        impulseTailFrames = frames(settings.quick ? 0.15 : 0.25)
        sweepSegmentFrames = sweep.frames + latencyAllowanceFrames + impulseTailFrames
        var at = frames(Self.leadInSeconds)
        var starts: [Int] = []
        for _ in 0..<settings.channels {
            starts.append(at)
            at += sweepSegmentFrames
        }
        sweepStarts = starts
        let toneFrames = frames(settings.quick ? 0.3 : 0.8)
        tone = SineTone(sampleRate: fs, frequency: settings.toneFrequency, amplitude: pow(10, settings.levelDBFS / 20), frames: toneFrames)
        quietTone = SineTone(sampleRate: fs, frequency: settings.toneFrequency, amplitude: pow(10, Self.quietToneLevel / 20),
                             frames: toneFrames)
        toneAnalysisOffset = tone.fadeFrames + frames(settings.quick ? 0.04 : 0.1)
        toneAnalysisFrames = toneFrames - toneAnalysisOffset - tone.fadeFrames
        toneStart = at
        at += toneFrames + latencyAllowanceFrames
        quietToneStart = at
        at += toneFrames + latencyAllowanceFrames
        totalFrames = at
    }

    /// The sweep's last frequency: 0.475 of the sample rate (22.8 kHz at 48 kHz, 20.9 kHz at
    /// 44.1 kHz), so that the band up to 20 kHz lies before its fade-out.
    public static func sweepEnd(sampleRate: Double) -> Double { 0.475 * sampleRate }

    /// The whole programme, one array per output, in float as the ports play it.
    public func programme() -> [[Float]] {
        let sweepSamples = sweep.samples().map { Float($0) }
        let toneSamples = tone.samples().map { Float($0) }
        let quietSamples = quietTone.samples().map { Float($0) }
        return (0..<settings.channels).map { c in
            var out = [Float](repeating: 0, count: totalFrames)
            out.replaceSubrange(sweepStarts[c]..<(sweepStarts[c] + sweep.frames), with: sweepSamples)
            out.replaceSubrange(toneStart..<(toneStart + tone.frames), with: toneSamples)
            out.replaceSubrange(quietToneStart..<(quietToneStart + quietTone.frames), with: quietSamples)
            return out
        }
    }

    /// The sweep exactly as the outputs play it (rounded to float), for the deconvolution.
    public func playedSweep() -> [Double] { sweep.samples().map { Double(Float($0)) } }

    /// The programme's length in seconds.
    public var seconds: Double { Double(totalFrames) / sampleRate }
}
