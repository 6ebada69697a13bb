import Foundation
import Glibc
import JackwaveSoundFiles
import JackwaveTestSupport
import Testing

/// Files on the wall clock, as pure parts: the periods, the boundaries in a zone (DST both
/// ways, half-hour offsets), the cuts on the frame clock (drift, steps), with time zones
/// given as explicit tables checked against tzdata by `date`, never by setting the process's
/// own `TZ`.
@Suite("Wall-clock cuts")
struct ClockTests {
    /// Europe/Berlin around its 2025 changes: CEST from 2025-03-30 01:00 UTC, CET again from
    /// 2025-10-26 01:00 UTC.
    static let springForward = 1_743_296_400
    static let fallBack = 1_761_440_400
    static let berlin = TransitionTableRules([
        .init(since: 1_729_990_800, offset: 3600, abbreviation: "CET"),
        .init(since: springForward, offset: 7200, abbreviation: "CEST"),
        .init(since: fallBack, offset: 3600, abbreviation: "CET"),
    ])
    static let kolkata = TransitionTableRules([.init(since: 0, offset: 19800, abbreviation: "IST")])

    func boundaries(_ period: String, _ zone: any TimeZoneRules) throws -> ClockBoundaries {
        ClockBoundaries(period: try #require(ClockPeriod.parse(period), "\(period) did not parse"), zone: zone)
    }

    /// The first `count` boundaries after `start`.
    func series(_ b: ClockBoundaries, after start: Int, count: Int) -> [Int] {
        var out: [Int] = [], t = start
        for _ in 0..<count { t = b.next(after: WallClockTime(seconds: t, nanoseconds: 0)); out.append(t) }
        return out
    }

    @Test("the Berlin table agrees with tzdata (date, TZ=Europe/Berlin) on both sides of each change")
    func tableMatchesTzdata() throws {
        for second in [Self.springForward - 1, Self.springForward, Self.fallBack - 1, Self.fallBack] {
            let out = try Run.tool("/usr/bin/date", ["-d", "@\(second)", "+%z %Z"], server: nil, environment: ["TZ": "Europe/Berlin"])
            let text = out.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            let offset = Self.berlin.offset(at: second)
            let expected = (offset < 0 ? "-" : "+") + String(format: "%02d%02d", abs(offset) / 3600, abs(offset) % 3600 / 60)
            #expect(text == "\(expected) \(Self.berlin.abbreviation(at: second))", "at \(second)")
        }
    }

    @Test("--split-every takes periods that divide a day, and nothing else", arguments: [
        ("1h", 3600), ("30m", 1800), ("1d", 86400), ("15m", 900), ("6h", 21600), ("10s", 10), ("2H", 7200),
    ])
    func periods(text: String, seconds: Int) {
        #expect(ClockPeriod.parse(text)?.seconds == seconds)
    }

    @Test("--split-every refuses periods that do not divide a day", arguments: ["7m", "5h", "2d", "0h", "-1h", "1", "h", "1.5h", "1y"])
    func badPeriods(text: String) {
        #expect(ClockPeriod.parse(text) == nil)
    }

    @Test("calendar fields from the day count agree with gmtime_r over 400 years of instants")
    func civilTimeMatchesLibc() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20000 {
            let second = Int.random(in: -2_208_988_800...10_000_000_000, using: &generator)
            var t = time_t(second)
            var fields = tm()
            gmtime_r(&t, &fields)
            let civil = CivilTime(second: second, offset: 0, abbreviation: "UTC")
            #expect(civil.year == Int(fields.tm_year) + 1900 && civil.month == Int(fields.tm_mon) + 1 && civil.day == Int(fields.tm_mday)
                    && civil.hour == Int(fields.tm_hour) && civil.minute == Int(fields.tm_min) && civil.second == Int(fields.tm_sec)
                    && civil.dayOfYear == Int(fields.tm_yday) + 1 && civil.weekday == (Int(fields.tm_wday) + 6) % 7 + 1,
                    "at \(second)")
        }
    }

    @Test("hourly boundaries in UTC are the full hours")
    func utcHours() throws {
        let start = 1_741_957_000  // 2025-03-14 12:56:40 UTC
        #expect(try series(boundaries("1h", UTCRules()), after: start, count: 3) == [1_741_957_200, 1_741_960_800, 1_741_964_400])
    }

    @Test("hourly boundaries in a half-hour zone fall at :30 UTC, when its clock shows :00")
    func halfHourZone() throws {
        let b = try series(boundaries("1h", Self.kolkata), after: 1_741_957_000, count: 2)
        #expect(b.map { ($0 + 19800) % 3600 } == [0, 0])
        #expect(b.map { $0 % 3600 } == [1800, 1800])
    }

    @Test("spring forward: the hour that never shows has no piece, and every piece is an hour of audio")
    func springForwardHours() throws {
        // From 00:30 CET: 01:00 CET, then 03:00 CEST (the jump), 04:00 CEST.
        let start = Self.springForward - 5400
        let b = try series(boundaries("1h", Self.berlin), after: start, count: 3)
        #expect(b == [Self.springForward - 3600, Self.springForward, Self.springForward + 3600])
        #expect(b.map { CivilTime(second: $0, zone: Self.berlin).hour } == [1, 3, 4])
    }

    @Test("fall back: 02:00 shows twice, and each is a boundary: two one-hour pieces named 02:00, told apart by %z")
    func fallBackHours() throws {
        // From 01:30 CEST: 02:00 CEST, 02:00 CET, 03:00 CET.
        let start = Self.fallBack - 5400
        let b = try series(boundaries("1h", Self.berlin), after: start, count: 3)
        #expect(b == [Self.fallBack - 3600, Self.fallBack, Self.fallBack + 3600])
        let pattern = try NamePattern.parse("%H%M%z.flac")
        #expect(b.map { pattern.path(for: WallClockTime(seconds: $0, nanoseconds: 0), zone: Self.berlin) }
                == ["0200+0200.flac", "0200+0100.flac", "0300+0100.flac"])
    }

    @Test("daily pieces run from local midnight to local midnight: 23 hours on the day the clocks go forward, 25 when they go back")
    func days() throws {
        let spring = try series(boundaries("1d", Self.berlin), after: Self.springForward - 86400, count: 2)
        #expect(spring[1] - spring[0] == 23 * 3600)
        #expect(spring.map { CivilTime(second: $0, zone: Self.berlin).hour } == [0, 0])
        let autumn = try series(boundaries("1d", Self.berlin), after: Self.fallBack - 86400, count: 2)
        #expect(autumn[1] - autumn[0] == 25 * 3600)
    }

    @Test("a run crossing two hour boundaries has three pieces, cut at the frames of 14:00 and 15:00, named by the clock")
    func twoBoundaries() throws {
        // 13:59:59.5 UTC; 48 kHz.
        let start = WallClockTime(seconds: 1_741_960_799, nanoseconds: 500_000_000)
        var cuts = try WallClockCuts(boundaries: boundaries("1h", UTCRules()), sampleRate: 48000, start: start)
        let pattern = try NamePattern.parse("%Y-%m-%d/%H%M.flac")
        var pieces = [cuts.current]
        while cuts.next.frame < 24000 + 3600 * 48000 + 1000 { pieces.append(cuts.advance()) }
        #expect(pieces.map(\.frame) == [0, 24000, 24000 + 3600 * 48000])
        #expect(pieces.map { pattern.path(for: $0.named, zone: UTCRules()) } == ["2025-03-14/1359.flac", "2025-03-14/1400.flac", "2025-03-14/1500.flac"])
        #expect(pieces.map(\.cause) == [.start, .boundary, .boundary])
    }

    @Test("a boundary falls on the first frame at or after it: exact to the frame at 44.1 kHz and 192 kHz, a day away")
    func boundaryFrames() {
        let anchor = ClockAnchor(frame: 1000, time: WallClockTime(seconds: 100, nanoseconds: 123_456_789))
        // 86399.876543211 s after the anchor's time (exact fractions, by Python's `fractions`):
        // 3810234555.56… frames at 44100 and 16588776296.29… at 192000, each rounded up.
        #expect(anchor.firstFrame(atOrAfter: 86500, sampleRate: 44100) == 1000 + 3_810_234_556)
        #expect(anchor.firstFrame(atOrAfter: 86500, sampleRate: 192_000) == 1000 + 16_588_776_297)
        #expect(anchor.firstFrame(atOrAfter: 101, sampleRate: 48000) == 1000 + 42075)  // 0.876543211 × 48000 = 42074.07
    }

    @Test("drift below a second moves the next cut to the wall clock's boundary; the pieces still join")
    func drift() throws {
        let start = WallClockTime(seconds: 1_741_960_000, nanoseconds: 0)  // 13:46:40 UTC
        var cuts = try WallClockCuts(boundaries: boundaries("1h", UTCRules()), sampleRate: 48000, start: start)
        #expect(cuts.next.frame == 800 * 48000)
        // 600 s of frames later, the wall clock reads 0.3 s more (a card running 500 ppm slow).
        let reading = WallClockTime(seconds: 1_741_960_600, nanoseconds: 300_000_000)
        let drifted = cuts.observe(frame: 600 * 48000, reading: reading)
        #expect(drifted == nil)
        #expect(cuts.next.frame == 600 * 48000 + 9_585_600)  // 199.7 s to 14:00 by the moved anchor
        #expect(cuts.next.cause == .boundary)
        // Jitter within 20 ms changes nothing.
        let before = cuts.next
        let jitter = cuts.observe(frame: 700 * 48000, reading: WallClockTime(seconds: 1_741_960_700, nanoseconds: 310_000_000))
        #expect(jitter == nil)
        #expect(cuts.next == before)
    }

    @Test("a wall-clock step is reported and starts a new piece at once, named after the new time; the frames run on", arguments: [3600.0 * 2.5, -1800.0])
    func step(seconds: Double) throws {
        let start = WallClockTime(seconds: 1_741_960_000, nanoseconds: 0)
        var cuts = try WallClockCuts(boundaries: boundaries("1h", UTCRules()), sampleRate: 48000, start: start)
        let frame: Int64 = 300 * 48000
        let reading = WallClockTime(seconds: 1_741_960_300 + Int(seconds), nanoseconds: 0)
        let observed = cuts.observe(frame: frame, reading: reading)
        let step = try #require(observed)
        #expect(step.seconds == seconds && step.frame == frame)
        #expect(cuts.next == ClockPiece(frame: frame, named: reading, cause: .step))
        cuts.advance()
        // The piece after it starts at the next full hour by the new reading.
        let nextHour = (reading.seconds / 3600 + 1) * 3600
        #expect(cuts.next.named.seconds == nextHour)
        #expect(cuts.next.frame == frame + Int64(nextHour - reading.seconds) * 48000)
    }

    @Test("a DST change is no step: the frame clock and UTC agree across it")
    func dstIsNoStep() throws {
        let start = WallClockTime(seconds: Self.fallBack - 1800, nanoseconds: 0)
        var cuts = try WallClockCuts(boundaries: boundaries("1h", Self.berlin), sampleRate: 48000, start: start)
        let observed = cuts.observe(frame: 3600 * 48000, reading: WallClockTime(seconds: Self.fallBack + 1800, nanoseconds: 0))
        #expect(observed == nil)
        #expect(cuts.next.frame == 1800 * 48000)  // 02:00 CET, the second 02:00
    }
}
