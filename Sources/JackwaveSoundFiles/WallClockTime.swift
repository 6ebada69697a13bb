import Glibc

/// A wall-clock instant (`CLOCK_REALTIME`) to the nanosecond: when a run's frame 0 was.
///
/// Shown in local time, as Broadcast Wave files and people expect.
public struct WallClockTime: Sendable, Equatable {
    /// Whole seconds since the Unix epoch.
    public let seconds: Int
    /// 0 ..< 1_000_000_000.
    public let nanoseconds: Int

    public init(seconds: Int, nanoseconds: Int) {
        let carry = nanoseconds >= 0 ? nanoseconds / 1_000_000_000 : (nanoseconds - 999_999_999) / 1_000_000_000
        self.seconds = seconds + carry
        self.nanoseconds = nanoseconds - carry * 1_000_000_000
    }

    /// `clock_gettime(CLOCK_REALTIME)`.
    public static func now() -> WallClockTime {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return WallClockTime(seconds: ts.tv_sec, nanoseconds: ts.tv_nsec)
    }

    /// This instant plus `frames` at `sampleRate`, to the nanosecond.
    public func adding(frames: Int64, sampleRate: Int) -> WallClockTime {
        let whole = Int(frames / Int64(sampleRate))
        let rest = Int(frames % Int64(sampleRate))
        return WallClockTime(seconds: seconds + whole, nanoseconds: nanoseconds + rest * 1_000_000_000 / sampleRate)
    }

    /// The local calendar fields (`localtime_r`) and the UTC offset in seconds.
    private var local: (tm: tm, offset: Int) {
        var t = time_t(seconds)
        var fields = tm()
        localtime_r(&t, &fields)
        return (fields, fields.tm_gmtoff)
    }

    /// Local date, `yyyy-mm-dd`.
    public var localDate: String {
        let f = local.tm
        return "\((Int(f.tm_year) + 1900).zeroPadded(4))-\((Int(f.tm_mon) + 1).zeroPadded(2))-\(Int(f.tm_mday).zeroPadded(2))"
    }

    /// Local time of day, `hh:mm:ss` (the second is truncated).
    public var localTime: String {
        let f = local.tm
        return "\(Int(f.tm_hour).zeroPadded(2)):\(Int(f.tm_min).zeroPadded(2)):\(Int(f.tm_sec).zeroPadded(2))"
    }

    /// Seconds since local midnight, with the fraction.
    public var secondsSinceLocalMidnight: Double {
        let f = local.tm
        return Double(Int(f.tm_hour) * 3600 + Int(f.tm_min) * 60 + Int(f.tm_sec)) + Double(nanoseconds) / 1e9
    }

    /// ISO 8601 in local time with milliseconds and the UTC offset:
    /// `2025-03-14T15:09:26.535+01:00`.
    public var iso8601: String {
        let offset = local.offset
        let sign = offset < 0 ? "-" : "+"
        let minutes = abs(offset) / 60
        return "\(localDate)T\(localTime).\((nanoseconds / 1_000_000).zeroPadded(3))\(sign)\((minutes / 60).zeroPadded(2)):\((minutes % 60).zeroPadded(2))"
    }
}
