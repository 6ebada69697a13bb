import Glibc

/// What the wall clock shows at an instant: the UTC offset (and its abbreviation) in force at
/// a second of Unix time. The clock's pieces need nothing else from a time zone.
public protocol TimeZoneRules: Sendable {
    /// Seconds east of UTC at `second` (Unix time): 3600 for CET, 7200 for CEST.
    func offset(at second: Int) -> Int
    /// The zone's abbreviation then (`CET`, `CEST`), as the C library names it.
    func abbreviation(at second: Int) -> String
}

/// UTC (`--utc`): no offset, ever.
public struct UTCRules: TimeZoneRules {
    public init() {}
    public func offset(at second: Int) -> Int { 0 }
    public func abbreviation(at second: Int) -> String { "UTC" }
}

/// The process's local time zone (`TZ`, else /etc/localtime), through `localtime_r`.
public struct SystemTimeZoneRules: TimeZoneRules {
    public init() {}

    public func offset(at second: Int) -> Int { fields(second).tm_gmtoff }

    public func abbreviation(at second: Int) -> String {
        fields(second).tm_zone.map { String(cString: $0) } ?? ""
    }

    private func fields(_ second: Int) -> tm {
        var t = time_t(second)
        var result = tm()
        localtime_r(&t, &result)
        return result
    }
}

/// A zone given as its offsets and the instants they start (a time zone's rules written out:
/// the tests' DST transitions, each checked against tzdata by `date`).
public struct TransitionTableRules: TimeZoneRules {
    /// From each `since` (Unix seconds) on, until the next: `offset` seconds east, `abbreviation`.
    public struct Period: Sendable {
        public let since: Int
        public let offset: Int
        public let abbreviation: String
        public init(since: Int, offset: Int, abbreviation: String) {
            self.since = since
            self.offset = offset
            self.abbreviation = abbreviation
        }
    }

    /// In time order; the first applies before its `since` too.
    public let periods: [Period]

    public init(_ periods: [Period]) {
        precondition(!periods.isEmpty)
        self.periods = periods.sorted { $0.since < $1.since }
    }

    private func period(at second: Int) -> Period {
        periods.last { $0.since <= second } ?? periods[0]
    }

    public func offset(at second: Int) -> Int { period(at: second).offset }
    public func abbreviation(at second: Int) -> String { period(at: second).abbreviation }
}
