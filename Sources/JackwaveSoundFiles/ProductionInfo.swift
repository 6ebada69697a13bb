/// What a recordist says of a recording (`--project`, `--scene`, `--take`, `--tape`,
/// `--note`): written into every file's `iXML` and `bext` description, as editors and
/// conform tools read them from field recorders.
public struct ProductionInfo: Sendable, Equatable {
    public var project: String?
    public var scene: String?
    /// The run's first take number; armed runs count up from it, one per take.
    public var firstTake: Int?
    public var tape: String?
    public var note: String?

    public init(project: String? = nil, scene: String? = nil, firstTake: Int? = nil, tape: String? = nil, note: String? = nil) {
        self.project = project
        self.scene = scene
        self.firstTake = firstTake
        self.tape = tape
        self.note = note
    }

    /// The most bytes of one field: a `bext` description holds 256 in all.
    public static let maximumFieldBytes = 128

    /// Whether any field was given.
    public var isEmpty: Bool { project == nil && scene == nil && firstTake == nil && tape == nil && note == nil }

    /// The take number of the `ordinal`-th take of a run (from 1), when a first was given.
    public func take(ordinal: Int) -> Int? { firstTake.map { $0 + ordinal - 1 } }

    /// The `bext` description's lines, in the form field recorders write them
    /// (`sSCENE=12A`, one per line), for the fields given.
    public func descriptionLines(take: Int?) -> [String] {
        var lines: [String] = []
        if let project { lines.append("sPROJECT=\(project)") }
        if let scene { lines.append("sSCENE=\(scene)") }
        if let take { lines.append("sTAKE=\(take)") }
        if let tape { lines.append("sTAPE=\(tape)") }
        if let note { lines.append("sNOTE=\(note)") }
        return lines
    }
}

/// Where a file's first frame lies in the day, and by which clock: what its `bext`
/// TimeReference and its `iXML` timestamp both say.
public struct FileTimestamp: Sendable, Equatable {
    /// Samples since midnight at `sampleRate` (the file's).
    public var samplesSinceMidnight: UInt64
    public var sampleRate: Int
    /// The timecode it was read from (`--ltc`); nil when it comes from the wall clock.
    public var timecode: TimecodeLabel?

    public init(samplesSinceMidnight: UInt64, sampleRate: Int, timecode: TimecodeLabel?) {
        self.samplesSinceMidnight = samplesSinceMidnight
        self.sampleRate = sampleRate
        self.timecode = timecode
    }
}

/// A timecode as files name it: its rate as iXML spells it (`25/1`, `30000/1001`), drop
/// frame or not, and the label of the file's first frame (`01:00:00:00`, `01:00:00;00`).
public struct TimecodeLabel: Sendable, Equatable {
    public var rate: String
    public var dropFrame: Bool
    public var text: String

    public init(rate: String, dropFrame: Bool, text: String) {
        self.rate = rate
        self.dropFrame = dropFrame
        self.text = text
    }
}
