import Glibc

/// The frequencies a response is reported at: 1/24-octave steps from 1 kHz,
/// `1000·2^(k/24)` Hz, from the first at or above 20 Hz to the last at or below the top.
public enum FrequencyGrid {
    /// Steps per octave.
    public static let stepsPerOctave = 24
    /// The lowest frequency reported, Hz.
    public static let bottom = 20.0

    /// The frequency of step `k` (0 is 1 kHz).
    public static func frequency(step k: Int) -> Double { 1000 * pow(2, Double(k) / Double(stepsPerOctave)) }

    /// The steps from 20 Hz up to `top` Hz.
    public static func steps(upTo top: Double) -> ClosedRange<Int> {
        let low = Int((Double(stepsPerOctave) * log2(bottom / 1000)).rounded(.up))
        let high = Int((Double(stepsPerOctave) * log2(top / 1000) + 1e-9).rounded(.down))
        return low...Swift.max(low, high)
    }

    /// The frequencies from 20 Hz up to `top` Hz.
    public static func frequencies(upTo top: Double) -> [Double] { steps(upTo: top).map(frequency(step:)) }
}
