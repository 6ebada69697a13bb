import JackwaveVocabulary
/// The checks behind `--record`, `--format`, `--bits`, `--rate` and `--split` that need no
/// disk and no server: which format a recording gets, and whether it can hold what was
/// asked. Each failure is one line for the user (the command turns it into exit code 2).
public enum FileChoice {
    /// The format of `--record path`: `--format` if given (the path's extension must not
    /// name another format), else the extension's. Checks the depth and, when given, the rate.
    public static func format(for path: String, named: SoundFormat?, depth: SampleDepth?,
                              rate: Int?) throws(FileChoiceError) -> SoundFormat {
        let ext = FileNames.lowercasedExtension(path)
        let format: SoundFormat
        if let named {
            if let other = SoundFormat.forPath(path), !named.extensions.contains(ext) {
                throw FileChoiceError("\(setting: .record) \(path): \(setting: .format) \(named.name) does not write .\(ext) files (that is \(other.name))")
            }
            format = named
        } else {
            guard let byExtension = SoundFormat.forPath(path) else {
                let known = Set(SoundFormat.all.flatMap(\.extensions)).sorted().map { "." + $0 }.joined(separator: ", ")
                throw FileChoiceError("\(setting: .record) \(path): unknown extension (use \(known), or \(setting: .format))")
            }
            format = byExtension
        }
        if format.formatWord(depth: depth) == nil, let depth {
            let held = format.depths.map(\.rawValue).joined(separator: ", ")
            throw FileChoiceError(format.isLossy
                ? "\(setting: .record) \(path): \(format.name) is a lossy codec and takes no \(setting: .bits)"
                : "\(setting: .record) \(path): \(format.name) cannot hold \(setting: .bits) \(depth.rawValue) (it holds \(held))")
        }
        if !FormatCatalog.writes(format, depth: format.resolvedDepth(depth)) {
            throw FileChoiceError("\(setting: .record) \(path): this machine's libsndfile does not write \(format.name) (jackwave \(setting: .listFormats) lists what it writes)")
        }
        if let rate { try checkRate(rate, format: format, given: true) }
        return format
    }

    /// Whether `format` holds `channels` channels (MP3: one or two).
    public static func checkChannels(_ channels: Int, format: SoundFormat, path: String) throws(FileChoiceError) {
        guard let most = format.maximumChannels, channels > most else { return }
        throw FileChoiceError("\(setting: .record) \(path): \(format.name) files hold 1 or \(most) channels, not \(channels)")
    }

    /// Whether `format` takes files at `rate` (Opus takes five rates only).
    public static func checkRate(_ rate: Int, format: SoundFormat, given: Bool) throws(FileChoiceError) {
        guard let rates = format.sampleRates, !rates.contains(rate) else { return }
        let list = rates.map { String($0) }.joined(separator: ", ")
        throw FileChoiceError(given
            ? "\(setting: .rate) \(rate): \(format.name) files are \(list) Hz only"
            : "\(format.name) files are \(list) Hz only and the server runs at \(rate) Hz: add \(setting: .rate) 48000")
    }

    /// The shortest piece a recording is cut into (`--split`, and between two OSC splits): a
    /// piece is a file, a close and a hook run, not a frame.
    public static let minimumSplitSeconds = 1.0

    /// Frames per piece for `--split seconds` at `rate`: round(seconds × rate), at least one.
    public static func splitFrames(_ seconds: Double, rate: Int) throws(FileChoiceError) -> Int64 {
        let frames = Int64((seconds * Double(rate)).rounded())
        guard frames >= 1 else { throw FileChoiceError("\(setting: .split) \(seconds) is less than one frame at \(rate) Hz") }
        return frames
    }
}

/// A file option that cannot be honoured: one line.
public struct FileChoiceError: Error, Equatable {
    public let message: Phrase
    public init(_ message: Phrase) { self.message = message }
}
