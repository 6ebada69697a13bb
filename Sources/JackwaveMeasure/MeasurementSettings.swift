/// What a measurement was asked for: a plain value the command line fills in.
public struct MeasurementSettings: Sendable, Equatable {
    /// Output/input pairs: output N drives the path whose end input N records.
    public var channels = 2
    /// Shorter sweeps and tones: about 3 s instead of about 9 s at 48 kHz and 2 channels,
    /// with harmonics only from about 150 Hz and noisier low-level figures.
    public var quick = false
    /// The sweep's and the THD+N tone's peak level, dBFS.
    public var levelDBFS = -6.0
    /// The THD+N tone's (and the AES17 −60 dBFS tone's) frequency, Hz: 997 Hz by default,
    /// as AES17 advises, a frequency no common sample rate divides into whole cycles, so that
    /// the rounding error is noise rather than harmonics.
    public var toneFrequency = 997.0
    /// The longest round trip the measurement allows for: the silence after each signal,
    /// during which its response is still recorded.
    public var maximumLatencySeconds = 0.5

    public init() {}
}
