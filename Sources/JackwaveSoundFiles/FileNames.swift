import Foundation

/// How jackwave reads a file name's extension, in one place for every command, with
/// Foundation's rules: `take.WAV` → `wav`; `dir.d/take` and `.wav` have none.
public enum FileNames {
    /// The extension in lower case, without the dot; "" if there is none.
    public static func lowercasedExtension(_ path: String) -> String {
        (path as NSString).pathExtension.lowercased()
    }

    /// The path without its extension, and the extension with its dot as written
    /// (`dir/take.wav` → `dir/take`, `.wav`); the whole path and "" if there is none.
    public static func stemAndExtension(_ path: String) -> (stem: String, ext: String) {
        let ext = (path as NSString).pathExtension
        return ext.isEmpty ? (path, "") : ((path as NSString).deletingPathExtension, "." + ext)
    }
}
