@testable import JackwaveCLI
import JackwaveHost
import JackwaveSoundFiles
import Testing

/// The station logger's options: read into `RunOptions`' plain fields, or refused with one
/// line (exit code 2).
@Suite("Station logger options")
struct StationOptionsTests {
    @Test("--quality, --stream, --stream-password-file and --stream-quality are read into plain values")
    func values() throws {
        let o = try RunOptionsParser.parse(["--record", "x.mp3", "--quality", "192k", "--stream", "icecast://dj@radio.example.org:8010/live.opus",
                                            "--stream-password-file", "/etc/jackwave/pass", "--stream-quality", "0.7"])
        #expect(o.recording.quality == .bitRate(kilobitsPerSecond: 192))
        #expect(o.station.stream?.host == "radio.example.org" && o.station.stream?.port == 8010 && o.station.stream?.codec == .opus && o.station.stream?.user == "dj")
        #expect(o.station.streamPasswordFile == "/etc/jackwave/pass")
        #expect(o.station.streamQuality == .quality(0.7))
    }

    @Test("icecasts:// and --stream-ca are read into a TLS target and the file of authorities to trust")
    func tls() throws {
        let o = try RunOptionsParser.parse(["--record", "x.wav", "--stream", "icecasts://radio.example.org/live.ogg",
                                            "--stream-ca", "/etc/jackwave/station-ca.pem"])
        #expect(o.station.stream?.tls == true && o.station.stream?.port == 8443)
        #expect(o.station.streamCertificateAuthorities == "/etc/jackwave/station-ca.pem")
    }

    @Test("the station options are refused with one line when wrong, or alone where they need another", arguments: [
        Refusal("a quality out of range", ["--record", "x.mp3", "--quality", "2"], "--quality must be a quality from 0 to 1 or a bit rate such as 128k, not '2'"),
        Refusal("a quality without a recording", ["--quality", "0.5"], "--quality needs --record"),
        Refusal("a password file without a stream", ["--record", "x.wav", "--stream-password-file", "p"], "--stream-password-file needs --stream"),
        Refusal("authorities without a stream", ["--record", "x.wav", "--stream-ca", "ca.pem"], "--stream-ca needs --stream"),
        Refusal("a stream of an unknown codec", ["--record", "x.wav", "--stream", "icecast://h/a.aac"],
                "--stream: the mount point must end in .ogg, .opus or .mp3, which names the codec"),
        Refusal("a period that does not divide a day", ["--record", "x.wav", "--split-every", "7m"],
                "--split-every must be a period that divides a day, such as 1h, 30m or 1d, not '7m'"),
        Refusal("a pattern that leaves the folder", ["--record", "x.wav", "--split-every", "1h", "--name-pattern", "../%H.flac"],
                "--name-pattern ../%H.flac: has an empty, . or .. component"),
        Refusal("an overlap of more than half the period", ["--record", "x.wav", "--split-every", "1h", "--overlap", "2000"],
                "--overlap 2000 is more than half of --split-every 1h"),
        Refusal("--split-every with --split", ["--record", "x.wav", "--split-every", "1h", "--split", "60"],
                "--split-every and --split exclude each other"),
        Refusal("retention of a single file", ["--record", "x.wav", "--keep-space", "50G"],
                "--keep-space needs files that are cut (--split-every, --split, --reconnect, --osc) or takes"),
        Refusal("a time in a take's name", ["--record", "x.wav", "--name-pattern", "%H.wav"],
                "--name-pattern %H.wav: %H names a time, only with --split-every; a take's name takes %S (scene), %T (take), %P (project), %R (tape)"),
        Refusal("a take in a name on the clock", ["--record", "x.wav", "--split-every", "1h", "--name-pattern", "%H_%T.wav"],
                "--name-pattern %H_%T.wav: %T names a take; with --split-every the pattern names a time (%Y %m %d %H %M %S …)"),
        Refusal("a silence rule without a length", ["--silence", "-50dB"], "--silence must be LEVEL:SECONDS such as -50dB:30s, not '-50dB'"),
        Refusal("a clip run of none", ["--clip", "0"], "--clip must be between 1 and 1000, not 0"),
    ])
    func refused(refusal: Refusal) {
        #expect(refusal.actual == refusal.message)
    }

    @Test("the station options combine with every other: a stream alone, with --reconnect or armed; the clock with takes; alarms alone",
          arguments: [["--stream", "icecast://h/a.ogg"], ["--record", "x.wav", "--stream", "icecast://h/a.ogg", "--reconnect"],
                      ["--record", "x.wav", "--stream", "icecast://h/a.ogg", "--trigger", "-30dB"],
                      ["--record", "x.wav", "--split-every", "1h", "--transport", "--keep", "30d", "--osc", "9000"],
                      ["--silence", "-50dB:30s", "--clip", "3", "--on-event", "true"]])
    func combinations(arguments: [String]) throws {
        _ = try RunOptionsParser.parse(arguments)
    }

    @Test("--split-every, --name-pattern, --utc, --overlap, --keep, --keep-space, --silence, --clip and --on-event are read into plain values")
    func stationValues() throws {
        let o = try RunOptionsParser.parse(["--record", "/srv/air.flac", "--split-every", "30m", "--name-pattern", "%Y/%H%M.flac", "--utc",
                                            "--overlap", "60", "--keep", "90d", "--keep-space", "500G", "--silence", "-50dB:20s",
                                            "--clip", "3", "--on-event", "logger -t jackwave"])
        #expect(o.station.splitEvery?.seconds == 1800 && o.station.namePattern?.text == "%Y/%H%M.flac" && o.station.utc && o.station.overlapSeconds == 60)
        #expect(o.station.retention.seconds == 90 * 86400 && o.station.retention.bytes == 500 << 30)
        #expect(o.station.alarms.clipSamples == 3 && o.station.alarms.silenceSeconds == 20 && abs(Double(o.station.alarms.silenceLevel ?? 0) - 0.003162) < 1e-5)
        #expect(o.unattended.onEvent == "logger -t jackwave")
    }
}
