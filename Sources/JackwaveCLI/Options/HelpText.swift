/// What `--help` prints, laid out from a command's declaration: the summary, the usage,
/// then each section's options in two columns (the spelling from column 2, the help from
/// column 25), its notes, and the footer.
enum HelpText {
    /// Where the help column starts; a spelling too wide for its column gets a line of its own.
    static let helpColumn = 25

    /// The whole help of `command`. `more` (another command's sections, already laid out)
    /// go before the last section, which a command keeps for `--help` and its like.
    static func render<Options>(_ command: CommandDeclaration<Options>, more: [[String]] = []) -> String {
        var lines = [command.summary, "", "Usage:"] + command.usage.map { "  " + $0 } + [""]
        if let argument = command.argument {
            lines += row(argument.placeholder, argument.help) + [""]
        }
        var blocks = command.sections.map { section($0.title, $0.options, notes: $0.notes) }
        blocks.insert(contentsOf: more, at: max(blocks.count - 1, 0))
        for block in blocks { lines += block + [""] }
        lines += command.footer
        return lines.joined(separator: "\n") + "\n"
    }

    /// A section: `Title:`, one row per option (after the argument's, if given), the notes.
    static func section<Options>(_ title: String, _ options: [OptionDeclaration<Options>], notes: [String] = [],
                                 argument: ArgumentDeclaration<Options>? = nil) -> [String] {
        var lines = [title + ":"]
        if let argument { lines += row(argument.placeholder, argument.help) }
        for option in options { lines += row(option.label, option.help) }
        return lines + notes.map { "  " + $0 }
    }

    /// `  label   help`, the help's further lines under its first.
    static func row(_ label: String, _ help: [String]) -> [String] {
        let indent = String(repeating: " ", count: helpColumn)
        let head = "  " + label
        guard head.count < helpColumn else { return [head] + help.map { indent + $0 } }
        let first = head + String(repeating: " ", count: helpColumn - head.count) + help[0]
        return [first] + help.dropFirst().map { indent + $0 }
    }

    /// `jackwave --help`, written by hand until the main command's options are declared.
    static let main = """
    jackwave: record, play tones and meter levels on a JACK server.

    Usage:
      jackwave --record FILE [options]   record the input ports to FILE
      jackwave --tone HZ [options]       play a sine tone on the output ports
      jackwave [options]                 meter the first two capture ports
      jackwave plot FILE -o OUT.png|svg  draw a recording or a level stream
      jackwave levels FILE [--block N] [-o OUT]   a sound file's level stream, offline

    Recording:
      --record FILE          .wav (default), .flac, .ogg, .opus, .w64, .rf64, .caf, .aiff
      --format NAME          wav, wavex, rf64, w64, flac, ogg, opus, caf or aiff, whatever
                             the extension (jackwave --formats lists what this machine writes)
      -c, --channels N       input ports in_1 … in_N (default 2, or one per --port match)
      -p, --port PATTERN     source port(s) to connect, in order (name or glob; repeatable)
      --manual               connect nothing: wire the ports yourself (qjackctl)
      -d, --duration SEC     stop after exactly SEC × sample-rate frames
      --bits 16|24|32|float  sample format (default float; FLAC 24); 16 and 24 are
                             rounded with TPDF dither
      --no-dither            round 16/24-bit samples without dither
      --rate HZ              write the file at HZ (1000–768000), converted from the server's
                             rate in the writer thread (libsoxr, very high quality)
      --split SEC            a new file every SEC seconds: FILE-001.wav, FILE-002.wav, …
                             exact frame counts, nothing lost or repeated between them
      --print-start          print the wall-clock time of the first frame (ISO 8601);
                             WAV/RF64 files always carry it in a bext chunk
      --buffer SEC           ring buffer between JACK and the disk (default 10)
      --force                overwrite existing files

    Tone:
      --tone HZ              frequency, 0 < HZ < sample rate / 2, fractions allowed
      --outputs M            output ports out_1 … out_M (default 2)
      -t, --to PATTERN       destination port(s) to connect (name or glob; repeatable)
      --volume V             peak level, 0…1 or dBFS like -6dB (default 0.1 = -20 dBFS)
      --fade MS              raised-cosine fade in and out (default 20)
      Keys on a terminal: space pause, up/down ±1 semitone, left/right ±1 cent,
      +/- ±1 dB, q stop.

    Levels:
      --levels FILE|-        per-block peak levels as CSV (.csv, -) or JSON Lines (.jsonl)
      --levels-format F      csv or jsonl
      --level-interval MS    one row per MS instead of per JACK period (maximum of peaks)
      --meter, --no-meter    live meter on stderr (default: when stderr is a terminal)
      --plot OUT             after --record, draw the recording to OUT.png or OUT.svg

    Plot (jackwave plot FILE -o OUT):
      FILE                   a recording, or a level stream (.csv/.jsonl from --levels)
      -o, --output OUT       the picture: .png or .svg
      --width PX             picture width (default 1200)
      --height PX            picture height (default: 280 px per lane for 1–2 channels)
      --start SEC, --end SEC draw only this part of the recording
      --db                   dBFS amplitude scale (-60 dB at the centre line)
      --force                overwrite OUT

    JACK:
      -n, --name NAME        client name (default jackwave)
      -s, --server NAME      server (default $JACK_DEFAULT_SERVER, else the default)

      --help, --version, --formats

    Ctrl-C stops cleanly (a tone fades out first); a second Ctrl-C stops at once, still
    leaving a valid file. Exit codes: 0 done, 1 runtime failure, 2 bad usage.

    """
}
