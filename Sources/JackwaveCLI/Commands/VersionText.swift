import CBuildInfo
import JackwaveEngine
import JackwaveHost
import JackwaveRecording
import JackwaveSoundFiles
import JackwaveStreaming

/// What `jackwave --version` prints: jackwave's version and the commit it was built from,
/// then the C libraries it is running with (which the installed packages decide, not the
/// build), one per line, so that a bug report says exactly what ran. libshout, which only
/// `--stream` loads, is said present or missing, not loaded (see `Shout.installed`).
enum VersionText {
    static func render() -> String {
        [
            "jackwave \(Jackwave.version) (commit \(String(cString: jackwave_build_commit())))",
            "libjack \(JackClient.libraryVersion)",
            "libsndfile \(bare(SoundFile.libraryVersion, name: "libsndfile"))",
            "libsoxr \(bare(Resampler.libraryVersion, name: "libsoxr"))",
            Shout.installed ? "libshout (installed; loaded by --stream)" : "libshout not found (--stream needs libshout3)",
        ].joined(separator: "\n") + "\n"
    }

    /// A library's version without the name some libraries put in front ("libsoxr-0.1.3").
    static func bare(_ version: String, name: String) -> String {
        version.hasPrefix(name + "-") ? String(version.dropFirst(name.count + 1)) : version
    }
}
