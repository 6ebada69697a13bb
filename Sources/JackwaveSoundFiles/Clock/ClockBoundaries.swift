/// Where `--split-every` cuts on the wall clock: the instants at which the local clock (or
/// UTC) shows a whole multiple of the period since midnight.
///
/// A change of UTC offset is decided by what the clock shows. Jumping forward over a multiple
/// (or onto one) is a boundary, and the hour that never shows has no piece; falling back
/// shows 02:00 twice, so two pieces are named alike (`ExclusiveFile` suffixes the second
/// unless the pattern has `%z` or `%Z`). `1d` pieces are 23 or 25 hours on those days.
public struct ClockBoundaries: Sendable {
    public let period: ClockPeriod
    public let zone: any TimeZoneRules

    public init(period: ClockPeriod, zone: any TimeZoneRules) {
        self.period = period
        self.zone = zone
    }

    /// The first boundary strictly after `instant`, in Unix seconds (boundaries are whole
    /// seconds: offsets and periods are).
    public func next(after instant: WallClockTime) -> Int {
        let p = period.seconds
        var from = instant.seconds  // a boundary u is after the instant iff u > its whole second
        // Each turn moves past one change of offset; a period (a day at most) holds one at most
        // in any zone in use, but a few turns cost nothing.
        for _ in 0..<8 {
            let before = zone.offset(at: from)
            let candidate = ((from + before).floorDivided(by: p) + 1) * p - before
            guard zone.offset(at: candidate) != before else { return candidate }
            let change = firstChange(after: from, upTo: candidate, from: before)
            let after = zone.offset(at: change)
            // The clock shows a multiple at the change, or jumps forward over one.
            if (change + after).floorModulo(p) == 0 { return change }
            if after > before {
                let lastSkipped = (change + after - 1).floorDivided(by: p) * p
                if lastSkipped >= change + before { return change }
            }
            from = change
        }
        return from + p
    }

    /// The first second in `(start, end]` whose offset is not `offset` (there is one at `end`).
    private func firstChange(after start: Int, upTo end: Int, from offset: Int) -> Int {
        var low = start, high = end
        while high - low > 1 {
            let middle = low + (high - low) / 2
            if zone.offset(at: middle) == offset { low = middle } else { high = middle }
        }
        return high
    }
}
