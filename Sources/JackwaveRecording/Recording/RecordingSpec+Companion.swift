import JackwaveSoundFiles

extension RecordingSpec {
    /// Another output's path (`--plot OUT.png`) for `file`: with the file's numbers
    /// (`OUT-003-002.png`, `FileNaming.companion`), or on the wall clock with its name
    /// (`OUT-2025-03-14-1400.png`, `ClockNaming.companion`).
    package func companion(_ other: String, for file: RecordedFile) -> String {
        guard let clock else { return naming.companion(other, take: file.take, piece: file.piece) }
        let folder = clock.naming.folder
        let prefix = folder.isEmpty ? "" : folder.hasSuffix("/") ? folder : folder + "/"
        let relative = !prefix.isEmpty && file.path.hasPrefix(prefix) ? String(file.path.dropFirst(prefix.count)) : file.path
        return clock.naming.companion(other, relativePath: relative)
    }
}
