import JackwaveHost
import JackwaveRunSupport

extension RunOptionsParser {
    /// `--tone` and how it sounds and where it goes; the keys that change it while it plays.
    static let tone = OptionSection<RunOptions>("Tone", [
        Option("--tone", value: "HZ",
               help: "frequency, 0 < HZ < sample rate / 2, fractions allowed") { o, s throws(UsageError) in
            // The server's Nyquist frequency is checked once the server is known.
            o.tone.frequency = try s.positiveNumber(upTo: 1_000_000, what: "the frequency in Hz")
        },
        Option("--outputs", value: "M", needs: "--tone",
               help: "output ports out_1 … out_M (default 2)") { o, s throws(UsageError) in
            o.tone.outputs = try s.integer(in: 1...maximumPorts)
        },
        Option("-t", "--to", value: "PATTERN", kind: .port, needs: "--tone",
               help: "destination port(s) to connect (name or glob; repeatable)") { o, s throws(UsageError) in
            o.tone.toPatterns.append(try s.nonEmptyValue())
        },
        Option("--volume", value: "V", needs: "--tone",
               help: "peak level, 0…1 or dBFS like -6dB (default 0.1 = -20 dBFS)") { o, s throws(UsageError) in
            o.tone.volume = try parseVolume(s.value())
        },
        Option("--fade", value: "MS", needs: "--tone",
               help: "raised-cosine fade in and out (default 20)") { o, s throws(UsageError) in
            o.tone.fadeMilliseconds = try s.number(in: 0...10_000, what: "milliseconds")
        },
    ], notes: [
        "Keys on a terminal: space pause, up/down ±1 semitone, left/right ±1 cent,",
        "+/- ±1 dB, q stop.",
    ])
}
