/// How a recording on the wall clock (`--split-every`) names its files: from the time each
/// piece is named after, through a `NamePattern`, under `--record`'s folder. The default
/// pattern is `--record`'s name with the date and time (`air-20250314-140000.flac`). A name
/// that exists gets a suffix (`ExclusiveFile`): nothing is ever overwritten.
public struct ClockNaming: Sendable, Equatable {
    /// The folder the pattern's paths are relative to ("" for the working directory).
    public let folder: String
    public let pattern: NamePattern
    /// The zone the names (and the cuts) follow: UTC (`--utc`), the local one, or (tests) a
    /// table of transitions; `zoneName` tells them apart for `==`.
    public let zone: any TimeZoneRules
    public let zoneName: String
    /// The default pattern's leading stem (`air` for `--record air.flac`), nil with a
    /// `--name-pattern`: a companion leaves it out rather than repeat it.
    let defaultStem: String?

    /// Names for `--record path` with `pattern` (nil: the default one), in UTC or local time.
    public init(record path: String, pattern: NamePattern?, utc: Bool) {
        self.init(record: path, pattern: pattern, zone: utc ? UTCRules() : SystemTimeZoneRules(), zoneName: utc ? "UTC" : "local")
    }

    /// Names in `zone` (called `zoneName`).
    public init(record path: String, pattern: NamePattern?, zone: any TimeZoneRules, zoneName: String) {
        folder = FileNames.directory(path)
        self.zone = zone
        self.zoneName = zoneName
        let (stem, ext) = FileNames.stemAndExtension(FileNames.lastComponent(path))
        defaultStem = pattern == nil ? stem : nil
        if let pattern {
            self.pattern = pattern
        } else {
            let escaped = stem.replacingPercent()
            // A name NamePattern would refuse (it has a sound file's extension, as `--record`
            // was checked to) cannot arise: the stem is one component, escaped.
            self.pattern = (try? NamePattern.parse(escaped + "-%Y%m%d-%H%M%S" + ext))
                ?? (try! NamePattern.parse("%Y%m%d-%H%M%S" + ext))
        }
    }

    public static func == (a: ClockNaming, b: ClockNaming) -> Bool {
        a.folder == b.folder && a.pattern == b.pattern && a.zoneName == b.zoneName && a.defaultStem == b.defaultStem
    }

    /// The path, relative to `folder`, of a file whose first frame is at `instant`.
    public func relativePath(for instant: WallClockTime) -> String {
        pattern.path(for: instant, zone: zone)
    }

    /// The widest path, relative to `folder`, that the names may take
    /// (`NamePattern.widestPath`), for the check of their length at the start: a zone's
    /// abbreviation counts as 6 letters (tzdata's longest, `+0530`), or as the zone's own
    /// now if that is longer.
    public var widestRelativePath: String {
        pattern.widestPath(abbreviationBytes: max(6, zone.abbreviation(at: WallClockTime.now().seconds).utf8.count))
    }

    /// `other` (a picture's path) for the file at `relativePath`: `other`'s stem, the file's name
    /// with its folders joined by `-` (less the default pattern's stem), `other`'s extension.
    /// `pics/air.png` for `2025-03-14/1400.flac` is `pics/air-2025-03-14-1400.png`.
    public func companion(_ other: String, relativePath: String) -> String {
        let (stem, ext) = FileNames.stemAndExtension(other)
        var name = FileNames.stemAndExtension(relativePath).stem.split(separator: "/").joined(separator: "-")
        if let defaultStem, name.hasPrefix(defaultStem + "-") { name.removeFirst(defaultStem.count + 1) }
        return stem + "-" + name + ext
    }
}

extension String {
    /// `%` written as `%%`, for a literal in a `NamePattern`.
    func replacingPercent() -> String {
        var out = ""
        for c in self { out += c == "%" ? "%%" : String(c) }
        return out
    }
}
