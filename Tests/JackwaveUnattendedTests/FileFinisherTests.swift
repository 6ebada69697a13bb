import Foundation
import JackwaveRecording
import JackwaveRunSupport
import JackwaveSoundFiles
import JackwaveTestSupport
@testable import JackwaveUnattended
import Testing

/// The file finisher's bound at the end of a run: a picture that never finishes (cairo stuck,
/// a disk that hangs) holds the end no longer than that, and what it leaves is said.
@Suite("File finisher")
struct FileFinisherTests {
    let dir = temporaryDirectory()

    @Test("a picture that never finishes holds the end no longer than its bound: each file left is a line and a file_unfinished event")
    func stuckPictureIsLeftBehind() throws {
        let spec = RecordingSpec(path: dir + "/x.wav", format: try #require(SoundFormat.named("wav")), depth: .float, channels: 1,
                                 inputRate: 48000, fileRate: 48000, dither: false, splitFrames: 48000,
                                 naming: FileNaming(base: dir + "/x.wav", armed: false, cut: true))
        let events = try EventLog(path: dir + "/events.jsonl")
        // Holds the finisher's thread in its first picture until the test lets it go.
        let stuck = DispatchSemaphore(value: 0)
        let finisher = FileFinisher(spec: spec, pictures: (path: dir + "/x.png", draw: { _, _ in
            stuck.wait()
            return .failure(PictureFailure("let go"))
        }), measuresLoudness: false, events: events, hook: nil)
        defer { stuck.signal() }
        let files = (1...3).map { n in
            RecordedFile(path: dir + String(format: "/x-%03d.wav", n), take: 0, piece: n, firstFrame: Int64(n - 1) * 48000,
                         endFrame: Int64(n) * 48000, frames: 48000, ok: true)
        }
        for file in files { finisher.enqueue(.init(file: file, markers: [])) }
        finisher.finish(within: 0.2)
        #expect(finisher.leftUnfinished == 3)
        let lines = finisher.messages.drain().map(\.plain)
        #expect(lines.first == "the files' finishing did not end within 0.2 s of the recording's end; 3 files left without it", "\(lines)")
        for file in files {
            #expect(lines.contains("\(file.path): its markers, picture, loudness and ‹onClose› are left out (the audio is complete)"),
                    "\(lines)")
        }
        #expect(events.flush())
        let unfinished = try EventStream.read(dir + "/events.jsonl").filter { $0["event"] as? String == "file_unfinished" }
        #expect(unfinished.compactMap { $0["path"] as? String } == files.map(\.path))
        #expect(unfinished.compactMap { $0["frame"] as? Int } == [48000, 96000, 144000])
    }
}
