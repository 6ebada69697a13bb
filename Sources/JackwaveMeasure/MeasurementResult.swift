/// What a measurement found on one path, output N to input N.
public struct ChannelResult: Sendable, Equatable {
    /// The latency in frames, with its fraction; nil when no response came back.
    public let latency: LatencyEstimate?
    /// 1/24-octave points from 20 Hz to 20 kHz, relative to 1 kHz.
    public let response: [ResponsePoint]
    /// H2 to H5 against frequency.
    public let harmonics: [HarmonicCurve]
    /// The THD+N tone, at the chosen frequency and level.
    public let thdN: ToneMeasure?
    /// The AES17 tone at −60 dBFS: its residual is the noise floor.
    public let quietTone: ToneMeasure?
    /// The linear impulse response around its peak, for pictures: `impulseStart` is the
    /// first sample's frame relative to the latency's whole frame.
    public let impulse: [Double]
    public let impulseStart: Int

    /// The noise floor: the −60 dBFS tone's residual, dBFS (AES17).
    public var noiseDBFS: Double? { quietTone?.residualDBFS }
    /// AES17 dynamic range: the −60 dBFS tone's THD+N ratio, negated, plus 60 dB.
    public var dynamicRangeDB: Double? { quietTone.map { -$0.thdNDB - MeasurementPlan.quietToneLevel } }
}

/// Everything a measurement found.
public struct MeasurementResult: Sendable, Equatable {
    public let channels: [ChannelResult]
    /// `crosstalk[from][to]`, dB: the level output `from`'s sweep reached input `to` with,
    /// relative to the level it reached its own input with, over 1/3 octave at 1 kHz; nil on
    /// the diagonal; −∞ for digital silence.
    public let crosstalk: [[Double?]]
    /// Lines for problems found on the way (a path with no response).
    public let problems: [String]
}
