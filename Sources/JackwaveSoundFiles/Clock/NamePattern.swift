import JackwaveVocabulary

/// `--name-pattern`, in one of two kinds, which the run decides (`RunOptions`):
/// - on the wall clock (`--split-every`), `'%Y-%m-%d/%H%M.flac'`: a piece's path, relative to
///   the recording's folder, from the time it is named after (`ClockPiece.named`), with
///   strftime-like `specifiers`, read in the zone the cuts follow, without the C library's
///   process-wide zone;
/// - otherwise, a take's file name as field recorders make it, `'%S_%T.wav'`
///   (`FileNaming.TakeNames`): `takeSpecifiers`, the scene, the take (`T003`), the project and
///   the tape.
/// Anything else after `%` is refused, as are absolute paths, `..`, empty components and a
/// name without a sound file's extension.
public struct NamePattern: Sendable, Equatable {
    public let text: String

    public static let specifiers: Set<Character> = ["Y", "y", "m", "d", "j", "H", "M", "S", "u", "a", "z", "Z", "s", "%"]
    /// A take's name: %S the scene, %T the take (`T003`), %P the project, %R the tape (roll).
    public static let takeSpecifiers: Set<Character> = ["S", "T", "P", "R", "%"]
    static let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    /// Longer patterns are refused: a path component is at most 255 bytes anyway.
    static let maximumLength = 1024

    /// Checks `text`; one line saying what is wrong otherwise.
    public static func parse(_ text: String) throws(FileChoiceError) -> NamePattern {
        func refuse(_ why: String) -> FileChoiceError { FileChoiceError("\(setting: .namePattern) \(text): \(why)") }
        guard !text.isEmpty, text.utf8.count <= maximumLength else { throw refuse("must be 1 to \(maximumLength) bytes") }
        guard !text.hasPrefix("/") else { throw refuse("must be relative to the recording's folder (no leading /)") }
        guard !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f }) else {
            throw refuse("holds a control character")
        }
        var characters = text.makeIterator()
        while let c = characters.next() {
            guard c == "%" else { continue }
            guard let s = characters.next() else { throw refuse("ends with a lone %") }
            guard specifiers.contains(s) || takeSpecifiers.contains(s) else {
                throw refuse("%\(s) is not one of %Y %y %m %d %j %H %M %S %u %a %z %Z %s %% (on the wall clock) or %S %T %P %R (a take's name)")
            }
        }
        let components = text.split(separator: "/", omittingEmptySubsequences: false)
        guard !components.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) else {
            throw refuse("has an empty, . or .. component")
        }
        guard SoundFormat.forPath(text) != nil else {
            let known = Set(SoundFormat.all.flatMap(\.extensions)).sorted().map { "." + $0 }.joined(separator: ", ")
            throw refuse("must end in a sound file's extension (\(known))")
        }
        return NamePattern(text: text)
    }

    private init(text: String) { self.text = text }

    /// The specifiers it uses, `%` included for `%%`.
    public var specifiersUsed: Set<Character> {
        var used: Set<Character> = []
        var characters = text.makeIterator()
        while let c = characters.next() {
            if c == "%", let s = characters.next() { used.insert(s) }
        }
        return used
    }

    /// The widest path the pattern makes, for the check of its length at the start: each
    /// specifier as its longest text up to the year 9999 (`%s`: 12 digits; `%z`: +hhmm), a
    /// zone's abbreviation (`%Z`) as `abbreviationBytes` letters.
    public func widestPath(abbreviationBytes: Int) -> String {
        var out = ""
        var characters = text.makeIterator()
        while let c = characters.next() {
            guard c == "%", let s = characters.next() else { out.append(c); continue }
            switch s {
            case "Y": out += "9999"
            case "y", "m", "d", "H", "M", "S": out += "99"
            case "j": out += "366"
            case "u": out += "7"
            case "a": out += "Wed"
            case "z": out += "+1400"
            case "Z": out += String(repeating: "Z", count: abbreviationBytes)
            case "s": out += "253402300799"
            default: out.append("%")
            }
        }
        return out
    }

    /// The path for a piece named after `instant`, read in `zone`.
    public func path(for instant: WallClockTime, zone: any TimeZoneRules) -> String {
        let t = CivilTime(second: instant.seconds, zone: zone)
        var out = ""
        var characters = text.makeIterator()
        while let c = characters.next() {
            guard c == "%", let s = characters.next() else { out.append(c); continue }
            switch s {
            case "Y": out += t.year.zeroPadded(4)
            case "y": out += (t.year % 100).zeroPadded(2)
            case "m": out += t.month.zeroPadded(2)
            case "d": out += t.day.zeroPadded(2)
            case "j": out += t.dayOfYear.zeroPadded(3)
            case "H": out += t.hour.zeroPadded(2)
            case "M": out += t.minute.zeroPadded(2)
            case "S": out += t.second.zeroPadded(2)
            case "u": out += String(t.weekday)
            case "a": out += Self.weekdays[t.weekday - 1]
            case "z":
                let minutes = abs(t.offset) / 60
                out += (t.offset < 0 ? "-" : "+") + (minutes / 60).zeroPadded(2) + (minutes % 60).zeroPadded(2)
            case "Z": out += String(t.abbreviation.unicodeScalars.filter { $0.isASCII && ($0.properties.isAlphabetic || "0123456789+-".unicodeScalars.contains($0)) })
            case "s": out += String(instant.seconds)
            default: out.append("%")
            }
        }
        return out
    }
}
