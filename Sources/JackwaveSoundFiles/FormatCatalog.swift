import CSndfile
import FoundationEssentials
import Glibc

/// What `jackwave --formats` prints: the formats this libsndfile writes, asked of it, since
/// a build without FLAC, Vorbis, Opus or LAME has the same header. Each must be built in
/// (`SoundFile.builtFormats`) and pass `sf_format_check`.
public enum FormatCatalog {
    /// Each format jackwave knows that libsndfile writes here, with the depths (or codec)
    /// it writes: checked for 2 channels at 48 kHz, a rate every format takes.
    public static func writable() -> [(format: SoundFormat, depths: [String])] {
        SoundFormat.all.compactMap { format in
            if format.isLossy {
                guard writes(format, depth: nil), let codec = format.codecName else { return nil }
                return (format, [codec])
            }
            let depths = format.depths.filter { writes(format, depth: $0) }
            return depths.isEmpty ? nil : (format, depths.map(\.rawValue))
        }
    }

    /// Whether this machine's libsndfile writes `format` at `depth` (nil: the codec, or the
    /// default depth), for 2 channels at 48 kHz.
    public static func writes(_ format: SoundFormat, depth: SampleDepth?) -> Bool {
        guard let word = format.formatWord(depth: depth) else { return false }
        let built = SoundFile.builtFormats
        return built.majors.contains(word & Int32(SF_FORMAT_TYPEMASK)) && built.subtypes.contains(word & Int32(SF_FORMAT_SUBMASK))
            && SoundFile.canWrite(format: word, channels: 2, sampleRate: 48000)
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
