import JackwaveHost
import JackwaveRunSupport
import JackwaveSoundFiles

extension RunOptionsParser {
    /// `--record` and what shapes the file: ports, duration, format, depth, rate, pieces.
    static let recording = OptionSection<RunOptions>("Recording", [
        Option("--record", value: "FILE", kind: .soundFile,
               help: ".wav (default), .flac, .ogg, .opus, .mp3, .w64, .rf64, .caf, .aiff") { o, s throws(UsageError) in
            o.recording.path = try s.nonEmptyValue()
        },
        Option("--format", value: "NAME", kind: .choices(SoundFormat.all.map(\.name)), needs: "--record",
               help: "wav, wavex, rf64, w64, flac, ogg, opus, mp3, caf or aiff, whatever",
                     "the extension (jackwave --formats lists what this machine writes)") { o, s throws(UsageError) in
            o.recording.format = try s.choice(SoundFormat.named,
                                    expected: "one of " + SoundFormat.all.map(\.name).joined(separator: ", "))
        },
        Option("-c", "--channels", value: "N",
               help: "input ports in_1 … in_N (default 2, or one per --port match)") { o, s throws(UsageError) in
            o.jack.channels = try s.integer(in: 1...maximumPorts)
        },
        Option("-p", "--port", value: "PATTERN", kind: .port,
               help: "source port(s) to connect, in order (name or glob; repeatable)") { o, s throws(UsageError) in
            o.jack.portPatterns.append(try s.nonEmptyValue())
        },
        Option("--manual", help: "connect nothing: wire the ports yourself (qjackctl)") { $0.jack.manual = true },
        Option("-d", "--duration", value: "SEC",
               help: "stop after exactly SEC × sample-rate frames") { o, s throws(UsageError) in
            o.recording.duration = try s.positiveNumber(upTo: maximumSeconds, what: "seconds")
        },
        Option("--bits", value: "16|24|32|float", kind: .choices(SampleDepth.allCases.map(\.rawValue)), needs: "--record",
               help: "sample format (default float; FLAC 24); 16 and 24 are",
                     "rounded with TPDF dither") { o, s throws(UsageError) in
            o.recording.depth = try s.choice(SampleDepth.init(rawValue:), expected: "16, 24, 32 or float")
        },
        Option("--no-dither", needs: "--record", help: "round 16/24-bit samples without dither") { $0.recording.dither = false },
        Option("--rate", value: "HZ", needs: "--record",
               help: "write the file at HZ (1000–768000), converted from the server's",
                     "rate in the writer thread (libsoxr, very high quality)") { o, s throws(UsageError) in
            o.recording.fileRate = try s.integer(in: rateRange)
        },
        Option("--split", value: "SEC", needs: "--record",
               help: "a new file every SEC seconds (at least 1): FILE-001.wav, FILE-002.wav, …",
                     "exact frame counts, nothing lost or repeated between them;",
                     "armed, each take in pieces: FILE-003-001.wav, FILE-003-002.wav, …") { o, s throws(UsageError) in
            o.recording.splitSeconds = try s.number(in: minimumSplitSeconds...maximumSeconds, what: "seconds")
        },
        Option("--print-start",
               help: "print the wall-clock time of the first frame (ISO 8601);",
                     "WAV/RF64 files always carry it in a bext chunk") { $0.recording.printStart = true },
        Option("--buffer", value: "SEC",
               help: "ring buffer between JACK and the disk (default 10)") { o, s throws(UsageError) in
            o.recording.bufferSeconds = try s.positiveNumber(upTo: 600, what: "seconds")
        },
        Option("--force", help: "overwrite an existing file (numbered files never need it:",
                                 "a run numbers on after the files that exist)") { $0.recording.force = true },
    ])
}
