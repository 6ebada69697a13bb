import JackwaveVocabulary
import JackwaveAnalysis
import JackwaveHost
import JackwaveRecording
import JackwaveRunSupport
import JackwaveSoundFiles
import JackwaveStreaming

extension RunOptionsParser {
    /// A recorder left running for months (issue 25): compressed archives, a live stream,
    /// files on the wall clock, retention of its own files, dead-air and clipping alarms.
    static let station = OptionSection<RunOptions>("Station logger", [
        Option("--quality", value: "Q|RATEk", needs: "--record",
               help: "a lossy file's quality, 0 to 1 (variable rate), or a bit rate:",
                     "128k (MP3 at a constant rate, Opus aiming at it); Vorbis: Q only") { o, s throws(UsageError) in
            o.recording.quality = try s.choice(CompressionQuality.parse, expected: "a quality from 0 to 1 or a bit rate such as 128k")
        },
        Option("--stream", value: "URL",
               help: "stream the inputs live to Icecast: icecast://USER@HOST:PORT/mount.ogg",
                     "(.ogg Vorbis, .opus, .mp3; icecasts:// for TLS); password from",
                     "JACKWAVE_STREAM_PASSWORD") { o, s throws(UsageError) in
            let text = try s.nonEmptyValue()
            do throws(StreamTargetError) { o.station.stream = try StreamTarget.parse(text) } catch { throw UsageError(error.message) }
        },
        Option("--stream-password-file", value: "FILE", kind: .file(extensions: []), needs: "--stream",
               help: "the stream's password: this file's first line") { o, s throws(UsageError) in
            o.station.streamPasswordFile = try s.nonEmptyValue()
        },
        Option("--stream-ca", value: "FILE", kind: .file(extensions: []), needs: "--stream",
               help: "for icecasts:// (TLS): trust the authorities in this PEM file for the",
                     "server's certificate, instead of the system's") { o, s throws(UsageError) in
            o.station.streamCertificateAuthorities = try s.nonEmptyValue()
        },
        Option("--stream-quality", value: "Q", needs: "--stream",
               help: "the stream's quality (0 to 1) or bit rate (96k), as --quality") { o, s throws(UsageError) in
            o.station.streamQuality = try s.choice(CompressionQuality.parse, expected: "a quality from 0 to 1 or a bit rate such as 96k")
        },
        Option("--split-every", value: "PERIOD", needs: "--record",
               help: "a new file at each full hour (1h; 30m, 1d, …) of the wall clock,",
                     "named by its time") { o, s throws(UsageError) in
            o.station.splitEvery = try s.choice(ClockPeriod.parse, expected: "a period that divides a day, such as 1h, 30m or 1d")
        },
        Option("--name-pattern", value: "FMT", needs: "--record",
               help: "with --split-every, the pieces' names under --record's folder,",
                     "strftime-like: '%Y-%m-%d/%H%M.flac' (folders made; an existing name",
                     "gets _2); else a take's name: '%S_%T.wav' is 12A_T003.wav (%S scene,",
                     "%T take, %P project, %R tape)") { o, s throws(UsageError) in
            let text = try s.nonEmptyValue()
            do throws(FileChoiceError) { o.station.namePattern = try NamePattern.parse(text) } catch { throw UsageError(error.message) }
        },
        Option("--utc", needs: "--split-every", help: "the wall clock in UTC, not local time") { $0.station.utc = true },
        Option("--overlap", value: "SEC", needs: "--split-every",
               help: "each piece also holds SEC before its start and after its end") { o, s throws(UsageError) in
            o.station.overlapSeconds = try s.positiveNumber(upTo: 43200, what: "seconds")
        },
        Option("--keep", value: "AGE", needs: "--record",
               help: "delete this jackwave's own files older than AGE (30d, 12h)") { o, s throws(UsageError) in
            o.station.retention.seconds = try s.choice(RetentionLimits.parseAge, expected: "an age such as 30d, 12h or 90m")
        },
        Option("--keep-space", value: "SIZE", needs: "--record",
               help: "keep this jackwave's own files within SIZE (50G, 500M)") { o, s throws(UsageError) in
            o.station.retention.bytes = try s.choice(RetentionLimits.parseSize, expected: "a size such as 50G or 500M (at least 1M)")
        },
        Option("--silence", value: "LEVEL:SEC",
               help: "dead air: every input below LEVEL for SEC (-50dB:30s)") { o, s throws(UsageError) in
            let rule = try s.choice(AlarmSettings.parseSilence, expected: "LEVEL:SECONDS such as -50dB:30s")
            o.station.alarms.silenceLevel = rule.level
            o.station.alarms.silenceSeconds = rule.seconds
        },
        Option("--clip", value: "N",
               help: "clipping: N consecutive samples at full scale on an input") { o, s throws(UsageError) in
            o.station.alarms.clipSamples = try s.integer(in: 1...1000)
        },
        Option("--on-event", value: "CMD",
               help: "run CMD (through /bin/sh) with an alarm's JSON on stdin") { o, s throws(UsageError) in
            o.unattended.onEvent = try s.nonEmptyValue()
        },
    ])
}
