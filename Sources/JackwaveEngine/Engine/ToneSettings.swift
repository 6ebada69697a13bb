/// A tone's starting parameters.
public struct ToneSettings: Sendable {
    public var frequency: Double
    public var amplitude: Float
    public var fadeSeconds: Double
    public init(frequency: Double, amplitude: Float, fadeSeconds: Double) {
        self.frequency = frequency
        self.amplitude = amplitude
        self.fadeSeconds = fadeSeconds
    }
}
