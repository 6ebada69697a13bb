import FoundationEssentials
import Glibc

/// What `jackwave --formats` prints: the formats this machine's libsndfile writes, asked
/// of libsndfile itself (`sf_format_check`), since a libsndfile built without FLAC, Vorbis
/// or Opus still has the same header.
public enum FormatCatalog {
    /// Each format jackwave knows that libsndfile writes here, with the depths (or codec)
    /// it writes: checked for 2 channels at 48 kHz, a rate every format takes.
    public static func writable() -> [(format: SoundFormat, depths: [String])] {
        SoundFormat.all.compactMap { format in
            if format.isLossy {
                guard let word = format.formatWord(depth: nil),
                      SoundFile.canWrite(format: word, channels: 2, sampleRate: 48000) else { return nil }
                return (format, [format.name == "opus" ? "opus" : "vorbis"])
            }
            let depths = format.depths.filter { depth in
                format.formatWord(depth: depth).map { SoundFile.canWrite(format: $0, channels: 2, sampleRate: 48000) } ?? false
            }
            return depths.isEmpty ? nil : (format, depths.map(\.rawValue))
        }
    }

    /// One line per format: name, extensions, depths, what it is.
    public static func lines() -> [String] {
        writable().map { entry in
            let f = entry.format
            let name = f.name.padded(to: 7)
            let exts = f.extensions.map { "." + $0 }.joined(separator: " ").padded(to: 12)
            let depths = entry.depths.joined(separator: " ").padded(to: 16)
            return "\(name)\(exts)\(depths)\(f.summary)"
        }
    }
}

extension String {
    /// Spaces added up to `width` characters, or cut to it, as Foundation's
    /// `padding(toLength:withPad:startingAt:)` does: the columns of `--formats`.
    public func padded(to width: Int) -> String {
        count >= width ? String(prefix(width)) : self + String(repeating: " ", count: width - count)
    }
}
