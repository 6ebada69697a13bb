import CPortSMF
import JackwaveSoundFiles
import JackwaveVocabulary

/// The notes of a Standard MIDI File, for a piano roll: read once through portSMF (the C API
/// in CPortSMF, which checks the file before portSMF sees it) into plain values, with times
/// in seconds through the file's tempo map.
public struct MidiNotes: Sendable, Equatable {
    public struct Note: Sendable, Equatable {
        /// The track (MTrk chunk) it is in, 0 for the first.
        public let track: Int
        public let channel: Int
        public let pitch: Int
        /// The note-on velocity, 1…127.
        public let velocity: Int
        /// Seconds from the start of the file.
        public let start: Double
        public let duration: Double

        public init(track: Int, channel: Int, pitch: Int, velocity: Int, start: Double, duration: Double) {
            self.track = track
            self.channel = channel
            self.pitch = pitch
            self.velocity = velocity
            self.start = start
            self.duration = duration
        }

        public var end: Double { start + duration }
    }

    /// Ordered by track, then start.
    public let notes: [Note]
    /// Each track's name (meta event 0x03), nil where it has none; one per track.
    public let trackNames: [String?]
    /// Seconds: the latest end of a track.
    public let length: Double

    public init(notes: [Note], trackNames: [String?], length: Double) {
        self.notes = notes
        self.trackNames = trackNames
        self.length = length
    }

    /// The tracks that hold notes, in file order: the ones a piano roll colours and lists.
    public var tracksWithNotes: [Int] {
        var seen = Set<Int>()
        return notes.compactMap { seen.insert($0.track).inserted ? $0.track : nil }.sorted()
    }

    /// What the legend calls `track`: its name, or "track N" counting from 1.
    public func label(ofTrack track: Int) -> String {
        if track < trackNames.count, let name = trackNames[track], !name.isEmpty { return name }
        return "track \(track + 1)"
    }

    /// The lowest and highest pitch played, nil without notes.
    public var pitchRange: ClosedRange<Int>? {
        guard let low = notes.map(\.pitch).min(), let high = notes.map(\.pitch).max() else { return nil }
        return low...high
    }

    /// Whether `path` names a Standard MIDI File (`.mid`, `.midi`) rather than a sound file.
    public static func isMidiFile(_ path: String) -> Bool {
        ["mid", "midi"].contains(FileNames.lowercasedExtension(path))
    }

    /// Reads `path`; every way the file can be wrong is bad input (exit 2), running out of
    /// memory a failure (exit 1); either in one line naming the file.
    public static func read(path: String) throws(PlotError) -> MidiNotes {
        var file: OpaquePointer?
        var detail = [CChar](repeating: 0, count: 256)
        let status = jackwave_smf_open(path, &file, &detail, detail.count)
        guard status == JACKWAVE_SMF_OK, let file else {
            let why = String(decoding: detail.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let line: Phrase = "\(path): \(describe(status, why))"
            throw status == JACKWAVE_SMF_FAILED ? .failed(line) : .badInput(line)
        }
        defer { jackwave_smf_close(file) }
        let tracks = Int(jackwave_smf_track_count(file))
        let names: [String?] = (0..<tracks).map { t in jackwave_smf_track_name(file, Int32(t)).map { String(cString: $0) } }
        let count = jackwave_smf_note_count(file)
        let notes = UnsafeBufferPointer(start: jackwave_smf_notes(file), count: count).map {
            Note(track: Int($0.track), channel: Int($0.channel), pitch: Int($0.pitch), velocity: Int($0.velocity),
                 start: $0.start, duration: $0.duration)
        }
        return MidiNotes(notes: notes, trackNames: names, length: jackwave_smf_length(file))
    }

    /// A status as the end of an error line.
    static func describe(_ status: jackwave_smf_status, _ why: String) -> String {
        switch status {
        case JACKWAVE_SMF_UNREADABLE: "cannot be read (\(why))"
        case JACKWAVE_SMF_TOO_LARGE: "too large to draw (\(why); at most \(JACKWAVE_SMF_MAX_BYTES / (1024 * 1024)) MiB)"
        case JACKWAVE_SMF_MALFORMED: "not a Standard MIDI File that can be read (\(why))"
        case JACKWAVE_SMF_UNSUPPORTED: "a Standard MIDI File of a kind not drawn (\(why))"
        case JACKWAVE_SMF_TOO_MANY_NOTES: "too many notes to draw (\(why))"
        default: "reading it failed (\(why))"
        }
    }
}
