import JackwaveHost
import JackwaveRunSupport

extension RunOptionsParser {
    /// Options that answer a question and exit.
    static let information = OptionSection<RunOptions>("Information", [
        Option("--formats", help: "list the sound formats this machine writes, and exit") { $0.recording.listFormats = true },
        // Answered by `Jackwave.main` as the first argument; anywhere else it is refused
        // rather than ignored, since the run would then go ahead without printing it.
        Option(names: ["--version"], placeholder: nil,
               help: ["print the version (alone: jackwave --version)"]) { _, _ throws(UsageError) in
            throw UsageError("--version comes alone: jackwave --version")
        },
        // Expanded by `Jackwave.main` as the first argument (`ArgumentsFile`); anywhere else
        // it is refused, as a file's arguments cannot go in the middle of others.
        Option("--arguments", value: "FILE", kind: .file(extensions: ["args"]),
               help: "first: take the arguments from FILE, one per line, as written",
                     "(no quoting; # comments); those after FILE follow") { _, _ throws(UsageError) in
            throw UsageError("--arguments comes first: jackwave --arguments FILE [more options]")
        },
        .helpOption,
    ], notes: [
        "jackwave plot --help, jackwave levels --help and jackwave loudness --help show their own",
        "options.",
    ])
}
