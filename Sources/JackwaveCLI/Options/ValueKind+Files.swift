import JackwaveLevelStream
import JackwaveSoundFiles

/// The kinds of file jackwave's options and arguments name, each declared once.
extension ValueKind {
    /// A sound file: every extension jackwave writes, in `--formats` order.
    static let soundFile = ValueKind.file(extensions: SoundFormat.all.flatMap(\.extensions).reduce(into: []) {
        if !$0.contains($1) { $0.append($1) }
    })
    /// A level stream: CSV or JSON Lines.
    static let levelStream = ValueKind.file(extensions: ["csv", "jsonl", "ndjson"])
    /// A picture `plot` draws.
    static let picture = ValueKind.file(extensions: ["png", "svg"])
    /// A Standard MIDI File.
    static let midiFile = ValueKind.file(extensions: ["mid", "midi"])
    /// A recording, a level stream or a MIDI file: what `plot` reads.
    static let plotInput = ValueKind.file(extensions: soundFile.fileExtensions + levelStream.fileExtensions + midiFile.fileExtensions)
    /// `--levels-format`'s words.
    static let levelStreamFormat = ValueKind.choices(LevelStreamFormat.allCases.map(\.rawValue))

    /// The extensions of `.file`, else none.
    var fileExtensions: [String] { if case let .file(extensions) = self { extensions } else { [] } }
}
