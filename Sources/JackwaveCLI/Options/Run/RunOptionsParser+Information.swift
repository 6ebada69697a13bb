import JackwaveHost

extension RunOptionsParser {
    /// Options that answer a question and exit.
    static let information = OptionSection<RunOptions>("Information", [
        Option("--formats", help: "list the sound formats this machine writes, and exit") { $0.listFormats = true },
        // Answered by `Jackwave.main` as the first argument; anywhere else it is refused
        // rather than ignored, since the run would then go ahead without printing it.
        Option(names: ["--version"], placeholder: nil,
               help: ["print the version (alone: jackwave --version)"]) { _, _ throws(UsageError) in
            throw UsageError("--version comes alone: jackwave --version")
        },
        .helpOption,
    ], notes: [
        "jackwave plot --help, jackwave levels --help and jackwave loudness --help show their own",
        "options.",
    ])
}
