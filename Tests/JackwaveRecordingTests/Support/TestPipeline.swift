@testable import JackwaveRecording

extension RecordingPipeline {
    /// A pipeline writing `spec`'s files, its first file open as a run opens it (none when
    /// armed: takes open their own), and its one segment begun at frame 0.
    static func opened(_ spec: RecordingSpec, observer: (any RecordingFilesObserver)? = nil) throws -> RecordingPipeline {
        let files = RecordingFiles(spec: spec, observer: observer)
        if !spec.takes { try files.openFirstFile() }
        return try RecordingPipeline(files: files)
    }
}
