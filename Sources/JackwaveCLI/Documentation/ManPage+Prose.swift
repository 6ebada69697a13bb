/// The man page's own prose: what no option declaration says (what jackwave is, its
/// environment, files and examples). Everything about an option is in its declaration.
extension ManPage {
    static let description = [
        "jackwave is a realtime JACK client. With --record it records its input ports to a sound file, sample-exact, in a file that stays readable even if the program is killed. With --tone it plays an exact, click-free sine tone on its output ports. Whenever it has inputs it meters them: a live meter on a terminal, and a level stream (CSV or JSON Lines) with --levels. Its subcommands work offline on files: plot draws a recording or a level stream, levels computes a file's level stream, loudness measures EBU R 128 loudness and true peak. measure plays a sweep and tones on its outputs and reports what lies between them and its inputs: latency, frequency response, harmonic distortion, THD+N, noise, dynamic range and crosstalk.",
        "It runs on any JACK server: jackd (JACK2), or PipeWire through its libjack (pw-jack). Ctrl-C (or SIGTERM, or SIGHUP) stops cleanly: a tone fades out, everything received is written, the file is finalized, and one summary line says what was written. Frames that could not be written are counted and reported with their time, never lost silently.",
    ]

    static let exitStatus = [
        "0: done. 1: a runtime failure (the server went away, the disk is full); the file is still valid and holds everything received. 2: bad usage or bad input, reported in one line on stderr; no file is created or touched.",
    ]

    static let environment: [(term: String, meaning: String)] = [
        ("JACK_DEFAULT_SERVER", "The JACK server to use when --server is not given."),
        ("NO_COLOR", "When set to anything but the empty string, the live meter draws without colours (no-color.org)."),
        ("PIPEWIRE_REMOTE", "With PipeWire's libjack, the PipeWire daemon to connect to."),
    ]

    static let files: [(term: String, meaning: String)] = [
        ("FILE-001.wav, FILE-002.wav, ...", "The pieces of a recording that may be cut (--split, --reconnect, --osc), or the takes of an armed one (--trigger, --transport); numbered on after the files that exist, never over them."),
        ("FILE-003-001.wav, FILE-003-002.wav, ...", "The pieces of take 3 of an armed recording that may be cut."),
        ("/dev/shm", "Where JACK's shared memory lives; jackwave maps the server's, like every client."),
        ("/etc/jackwave/NAME.args", "The arguments of the service jackwave@NAME (jackwave@.service), one per line, read with --arguments."),
    ]

    static let examples: [(what: String, command: String)] = [
        ("Record the first two capture ports until Ctrl-C:", "jackwave --record take.wav"),
        ("Record four inputs for exactly 60 s as FLAC:", "jackwave --record take.flac -c 4 -d 60"),
        ("Record every capture port, one channel each:", "jackwave --record mix.wav -p 'system:capture_*'"),
        ("Record 16-bit at 44.1 kHz whatever the server runs at:", "jackwave --record take.wav --bits 16 --rate 44100"),
        ("One file per hour:", "jackwave --record day.flac --split 3600"),
        ("Play 997.5 Hz at -6 dBFS on the first two playback ports:", "jackwave --tone 997.5 --volume -6dB"),
        ("Meter the first two capture ports, and stream their levels:", "jackwave --levels - | your-tool"),
        ("Draw a recording:", "jackwave plot take.wav -o take.png"),
        ("Measure loudness:", "jackwave loudness take.wav"),
        ("Measure a sound card's loopback cable from playback 1 to capture 1:",
         "jackwave measure -c 1 -t system:playback_1 -p system:capture_1 --json card.json"),
        ("Run with PipeWire's JACK:", "pw-jack jackwave --record take.wav"),
        ("A remote on this machine, and one more network allowed:", "jackwave --record take.wav --osc 0.0.0.0:9000 --osc-allow 192.0.2.0/24"),
    ]

    static let seeAlso: [(name: String, section: Int)] = [
        ("jack_capture", 1), ("jackd", 1), ("pw-jack", 1), ("qjackctl", 1), ("jack_lsp", 1), ("jack_delay", 1),
    ]
}
