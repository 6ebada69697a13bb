import FoundationEssentials
import Glibc

/// The names of a split recording's pieces: `take.wav` → `take-001.wav`, `take-002.wav`, …
/// (three digits, more past 999).
public enum SplitNaming {
    /// The path of piece `number` (from 1) of a recording asked for as `base`.
    public static func path(_ base: String, piece number: Int) -> String {
        let (stem, ext) = FileNames.stemAndExtension(base)
        return stem + "-" + number.zeroPadded(3) + ext
    }

    /// The number after the highest piece of `base` that exists now (1 when none does): where a
    /// run restarted with the same arguments goes on (`Restart=on-failure`), never over its own
    /// earlier pieces. The pieces themselves are then created `O_EXCL` (`CreatedFile`), so a
    /// piece that appears meanwhile is refused, not truncated.
    public static func nextPiece(after base: String) -> Int {
        let (stem, ext) = FileNames.stemAndExtension(base)
        let prefix = FileNames.lastComponent(stem) + "-"
        let numbers = existingPieces(of: base).compactMap { path -> Int? in
            let name = FileNames.lastComponent(path)
            return Int(name.dropFirst(prefix.count).dropLast(ext.count))
        }
        return (numbers.max() ?? 0) + 1
    }

    /// Files that exist now and that a split recording of `base` could overwrite: every
    /// `stem-NNN.ext` in its directory, whatever the number (the run's length is unknown).
    public static func existingPieces(of base: String) -> [String] {
        let (stem, ext) = FileNames.stemAndExtension(base)
        let directory = FileNames.directory(stem)
        let prefix = FileNames.lastComponent(stem) + "-"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.isEmpty ? "." : directory)) ?? []
        return names.filter { name in
            guard name.hasPrefix(prefix), name.hasSuffix(ext) else { return false }
            let number = name.dropFirst(prefix.count).dropLast(ext.count)
            return number.count >= 3 && number.allSatisfy(\.isASCII) && number.allSatisfy(\.isNumber)
        }.sorted().map { directory.isEmpty ? $0 : directory.hasSuffix("/") ? directory + $0 : directory + "/" + $0 }
    }
}
