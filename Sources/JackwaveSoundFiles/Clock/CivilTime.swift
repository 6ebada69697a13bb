/// A wall-clock reading: the calendar fields of an instant at a UTC offset, worked out from
/// the day count (the proleptic Gregorian calendar's closed form, as in Howard Hinnant's
/// `civil_from_days`), so that no process-wide time zone is read or set.
public struct CivilTime: Sendable, Equatable {
    public let year: Int
    /// 1 to 12.
    public let month: Int
    /// 1 to 31.
    public let day: Int
    public let hour: Int
    public let minute: Int
    public let second: Int
    /// Day of the year, 1 to 366.
    public let dayOfYear: Int
    /// ISO weekday: 1 (Monday) to 7 (Sunday).
    public let weekday: Int
    /// Seconds east of UTC.
    public let offset: Int
    public let abbreviation: String

    /// The reading of Unix second `second` in `zone`.
    public init(second: Int, zone: any TimeZoneRules) {
        self.init(second: second, offset: zone.offset(at: second), abbreviation: zone.abbreviation(at: second))
    }

    public init(second: Int, offset: Int, abbreviation: String) {
        let local = second + offset
        let days = local.floorDivided(by: 86400)
        let inDay = local - days * 86400
        hour = inDay / 3600
        minute = inDay % 3600 / 60
        self.second = inDay % 60
        let z = days + 719_468
        let era = z.floorDivided(by: 146_097)
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        day = doy - (153 * mp + 2) / 5 + 1
        month = mp < 10 ? mp + 3 : mp - 9
        year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let before = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334][month - 1]
        dayOfYear = before + day + (leap && month > 2 ? 1 : 0)
        // 1970-01-01 was a Thursday (ISO 4).
        weekday = (days + 3).floorModulo(7) + 1
        self.offset = offset
        self.abbreviation = abbreviation
    }
}

extension Int {
    /// Division rounding toward minus infinity (`-1 / 86400` is -1, not 0).
    func floorDivided(by divisor: Int) -> Int {
        let q = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? q - 1 : q
    }

    /// The remainder that goes with `floorDivided(by:)`: 0 ..< divisor.
    func floorModulo(_ divisor: Int) -> Int { self - floorDivided(by: divisor) * divisor }
}
