/// `--split-every 1h|30m|1d`: the length of a piece on the wall clock, a whole number of
/// seconds that divides a day, so that pieces fall on the same local times every day
/// (`1h`: every full hour; `15m`: at :00, :15, :30, :45; `1d`: at local midnight).
public struct ClockPeriod: Sendable, Equatable, CustomStringConvertible {
    public let seconds: Int

    /// `10s`, `15m`, `1h`, `6h`, `1d`: a number and a unit (s, m, h, d); nil unless it
    /// divides a day.
    public static func parse(_ text: String) -> ClockPeriod? {
        let lower = text.lowercased()
        guard let unit = lower.last, let scale = ["s": 1, "m": 60, "h": 3600, "d": 86400][String(unit)],
              let count = Int(lower.dropLast()), count > 0, count <= 86400 else { return nil }
        let seconds = count * scale
        return seconds <= 86400 && 86400 % seconds == 0 ? ClockPeriod(seconds: seconds) : nil
    }

    public init?(seconds: Int) {
        guard seconds > 0, 86400 % seconds == 0 else { return nil }
        self.seconds = seconds
    }

    public var description: String {
        seconds % 86400 == 0 ? "1d" : seconds % 3600 == 0 ? "\(seconds / 3600)h" : seconds % 60 == 0 ? "\(seconds / 60)m" : "\(seconds)s"
    }
}
