import JackwaveHost
import JackwaveRunSupport
import JackwaveUnattended

extension RunOptionsParser {
    /// Running where nobody watches: events for a supervisor, a hook per finished file,
    /// surviving a server restart.
    static let unattended = OptionSection<RunOptions>("Unattended", [
        Option("--events", value: "FILE|-", kind: .file(extensions: ["jsonl", "ndjson"]),
               help: "what happens, as JSON Lines: files opened and closed, xruns,",
                     "drops, skipped cycles, connections, server lost and back,",
                     "markers, takes, each file's and take's loudness") { o, s throws(UsageError) in
            o.unattended.eventsPath = try s.nonEmptyValue()
        },
        Option("--on-close", value: "CMD", needs: "--record",
               help: "run CMD PATH (through /bin/sh) after each file is finalized;",
                     "a failure is reported and never stops the recording") { o, s throws(UsageError) in
            o.unattended.onClose = try s.nonEmptyValue()
        },
        Option("--on-close-timeout", value: "SEC", needs: "--on-close",
               help: "stop a hook (its whole process group: SIGTERM, then SIGKILL)",
                     "that runs longer than SEC seconds; said, and an event") { o, s throws(UsageError) in
            o.unattended.onCloseTimeout = try s.positiveNumber(upTo: maximumSeconds, what: "seconds")
        },
        Option("--reconnect",
               help: "when the server stops or restarts, finalize the file, wait for a",
                     "server and go on into the next numbered file (FILE-002.wav …)") { $0.unattended.reconnect = true },
        Option("--osc", value: "PORT|ADDR:PORT",
               help: "remote control over OSC on UDP PORT of this machine only (127.0.0.1",
                     "and ::1), or on ADDR ([ADDR] for IPv6, 0.0.0.0 for all): /jackwave/stop,",
                     "split, status, marker, tone/frequency, tone/volume, tone/pause") { o, s throws(UsageError) in
            let text = try s.value()
            guard let binding = OscBinding.parse(text) else {
                throw UsageError("--osc: '\(text)' is not a UDP port (1-65535) or a numeric ADDR:PORT ([ADDR]:PORT for IPv6)")
            }
            o.remote.osc = binding
        },
        Option("--osc-allow", value: "CIDR", needs: "--osc",
               help: "also accept OSC from the network CIDR (192.0.2.0/24, 2001:db8::/32,",
                     "or one address; repeatable); others are dropped and counted") { o, s throws(UsageError) in
            let text = try s.value()
            guard let network = OscNetwork(text) else {
                throw UsageError("--osc-allow: '\(text)' is not a network (a numeric address, or ADDRESS/BITS with BITS in digits; ::ffff: networks from /96)")
            }
            o.remote.allowed.append(network)
        },
    ])
}
