import FoundationEssentials
import JackwaveSoundFiles

extension JackRun {
    /// Drops a marker at `frame` (a stream frame), by default the current one (the last frame
    /// the callback has taken): thread-safe, for the terminal's `m` and any control interface.
    /// Returns its number; nil (and a line) once the run holds `MarkerBook.maximumMarkers`.
    @discardableResult
    public func dropMarker(label: String? = nil, atFrame given: Int64? = nil) -> Int? {
        // A lone counter (relaxed): the frame the callback had reached, within a period.
        let frame = given ?? Int64(signals.streamFrames.load(ordering: .relaxed))
        guard let number = markers.drop(atFrame: frame) else {
            messages.post("marker not dropped: this run already holds \(MarkerBook.maximumMarkers) markers, the most it keeps")
            return nil
        }
        let named = label.map { " (\($0))" } ?? ""
        messages.post("marker \(number)\(named) at \(Self.seconds(frame, sampleRate))")
        observer?.events?.emit(.marker, frame: observer?.timeline(streamFrame: Int(frame)) ?? frame,
                               [("number", .int(Int64(number)))] + (label.map { [("label", .string($0))] } ?? []))
        return number
    }

    /// Where each file of the recording lies on the run's timeline: its path, its first
    /// frame (server's rate) and its frames (file's rate). Only once the writer has ended.
    func recordedFiles() -> [(path: String, firstFrame: Int64, frames: Int64)] {
        guard let recording, let writer else { return [] }
        if let takes { return takes.takes.map { ($0.path, $0.firstFrame, $0.frames) } }
        let spec = recording.files.spec
        let total = Int64(writer.framesWritten.load(ordering: .relaxed))
        let piece = spec.splitFrames ?? max(total, 1)
        return recording.files.paths.enumerated().map { i, path in
            let start = Int64(i) * piece
            return (path, start * Int64(spec.inputRate) / Int64(spec.fileRate), min(piece, total - start))
        }
    }

    /// Writes each marker into the file that holds its frame, as a cue point, and says
    /// where each one went. Called once the files are closed.
    func writeMarkers() -> [String] {
        let frames = markers.all
        guard !frames.isEmpty, let recording else { return [] }
        let spec = recording.files.spec
        var lines: [String] = []
        var cues: [String: [Int64]] = [:]
        var order: [String] = []
        let files = recordedFiles()
        for (i, frame) in frames.enumerated() {
            let at = "marker \(i + 1) at \(Self.seconds(frame, sampleRate))"
            guard let file = files.first(where: { frame >= $0.firstFrame && (frame - $0.firstFrame) * Int64(spec.fileRate) / Int64(spec.inputRate) < $0.frames })
                // A marker at the very end of a recording (not armed) belongs to its last file.
                ?? files.last.flatMap({ takes == nil && frame >= $0.firstFrame ? $0 : nil }) else {
                lines.append("\(at): in no file (no take was recording)")
                continue
            }
            let position = min((frame - file.firstFrame) * Int64(spec.fileRate) / Int64(spec.inputRate), max(0, file.frames - 1))
            if cues[file.path] == nil { order.append(file.path) }
            cues[file.path, default: []].append(position)
            lines.append("\(at): \(FileNames.lastComponent(file.path)) frame \(position)")
        }
        for path in order {
            do throws(SoundFileError) {
                try SoundFile.addCues(cues[path]!, to: path)
            } catch {
                lines.append("markers not written into \(path): \(error.reason) (listed here only)")
            }
        }
        return lines
    }
}
