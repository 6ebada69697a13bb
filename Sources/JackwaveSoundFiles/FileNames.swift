/// How jackwave reads a path's parts, in one place for every command, with Foundation's
/// (NSString's) rules, written out so that no module needs Foundation's NSString:
/// `take.WAV` → `wav`; `dir.d/take` and `.wav` have no extension; trailing slashes ignored.
public enum FileNames {
    /// The extension in lower case, without the dot; "" if there is none.
    public static func lowercasedExtension(_ path: String) -> String {
        pathExtension(path).lowercased()
    }

    /// The path without its extension, and the extension with its dot as written
    /// (`dir/take.wav` → `dir/take`, `.wav`); the whole path and "" if there is none.
    public static func stemAndExtension(_ path: String) -> (stem: String, ext: String) {
        let ext = pathExtension(path)
        guard !ext.isEmpty else { return (path, "") }
        let trimmed = withoutTrailingSlashes(path)
        return (String(trimmed.dropLast(ext.count + 1)), "." + ext)
    }

    /// The last component (`dir/take.wav` → `take.wav`, `dir/` → `dir`, `/` → `/`).
    public static func lastComponent(_ path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        if trimmed == "/" { return trimmed }
        guard let slash = trimmed.lastIndex(of: "/") else { return trimmed }
        return String(trimmed[trimmed.index(after: slash)...])
    }

    /// The path without its last component (`dir/take.wav` → `dir`, `take.wav` → "",
    /// `/take.wav` → `/`).
    public static func directory(_ path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        if slash == trimmed.startIndex { return "/" }
        return withoutTrailingSlashes(String(trimmed[..<slash]))
    }

    /// The last component's extension as written: after its last dot, if that dot is
    /// neither its first character nor its last.
    static func pathExtension(_ path: String) -> String {
        let name = lastComponent(path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return String(name[name.index(after: dot)...])
    }

    /// `path` without trailing slashes, except a lone `/`.
    static func withoutTrailingSlashes(_ path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        return String(trimmed)
    }
}
