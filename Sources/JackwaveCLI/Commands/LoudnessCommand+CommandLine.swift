import JackwaveHost
import JackwaveRunSupport

extension LoudnessCommand {
    /// One of `loudness`' options.
    typealias Option = OptionDeclaration<Options>

    static let commandLine = CommandDeclaration<Options>(
        name: "jackwave loudness",
        summary: "jackwave loudness: loudness (EBU R 128 / ITU-R BS.1770) and true peak of sound files.",
        usage: ["jackwave loudness FILE... [--json]"],
        argument: file,
        sections: [OptionSection("Options", options + [.helpOption])],
        footer: [
            "Reports integrated loudness (LUFS), loudness range (LU), the largest momentary (400 ms)",
            "and short-term (3 s) loudness, true peak (dBTP, 4x oversampled) and sample peak (dBFS).",
            "Several files get a table and an overall line: their integrated loudness as one programme.",
            "Surround channels count +1.5 dB and LFE is left out when the file says which is which;",
            "a file of 3 or more channels that does not is measured with every channel at 1.0.",
            "Exit codes: 0 done, 1 the report could not be written, 2 bad usage or a FILE that",
            "cannot be read.",
        ])

    /// The sound files to measure, one or more.
    static let file = ArgumentDeclaration<Options>(
        "FILE", kind: .soundFile, help: "sound files libsndfile reads (.wav, .flac, .ogg, ...)") { o, word throws(UsageError) in
        if word.isEmpty { throw whichFile }
        o.inputs.append(word)
    }

    static let options: [Option] = [
        Option("--json", help: "one JSON object: the files and the overall loudness") { $0.json = true },
    ]

    /// No FILE (or an empty one).
    static let whichFile = UsageError("loudness: which file? (jackwave loudness FILE...)")

    /// The options, or the first thing wrong with them.
    static func parse(_ arguments: [String]) throws(UsageError) -> Options {
        let o = try commandLine.parse(arguments, into: Options()).options
        if o.inputs.isEmpty { throw whichFile }
        return o
    }
}
