import JackwaveHost

extension RunOptionsParser {
    /// Running where nobody watches: events for a supervisor, a hook per finished file,
    /// surviving a server restart.
    static let unattended = OptionSection<RunOptions>("Unattended", [
        Option("--events", value: "FILE|-", kind: .file(extensions: ["jsonl", "ndjson"]),
               help: "what happens, as JSON Lines: files opened and closed, xruns,",
                     "drops, skipped cycles, connections, server lost and back,",
                     "markers, takes, each file's and take's loudness") { o, s throws(UsageError) in
            o.eventsPath = try s.nonEmptyValue()
        },
        Option("--on-close", value: "CMD", needs: "--record",
               help: "run CMD PATH (through /bin/sh) after each file is finalized;",
                     "a failure is reported and never stops the recording") { o, s throws(UsageError) in
            o.onClose = try s.nonEmptyValue()
        },
        Option("--reconnect",
               help: "when the server stops or restarts, finalize the file, wait for a",
                     "server and go on into the next numbered file (FILE-002.wav …)") { $0.reconnect = true },
        Option("--osc", value: "PORT",
               help: "remote control over OSC on UDP PORT: /jackwave/stop, split,",
                     "marker, status, tone/frequency, tone/volume, tone/pause") { o, s throws(UsageError) in
            o.oscPort = try s.integer(in: 1...65535)
        },
    ])
}

extension RunOptionsParser {
    /// Checks between the unattended options and the others.
    static func checkUnattended(_ o: RunOptions) throws(UsageError) {
        if o.eventsPath == "-" && o.levelsPath == "-" {
            throw UsageError("--events - and --levels - would both write to stdout (send one to a file)")
        }
    }
}
