import Foundation
@testable import JackwaveRecording
import JackwaveRunSupport
import JackwaveSoundFiles
import JackwaveTestSupport
@testable import JackwaveUnattended
import Testing

/// The file finisher: what is written beside each file (`RecordingCompanion`: the MIDI
/// thread's `.mid`), which the file's markers and `--on-close` wait for, with a bound; and its
/// own bound at the end of a run: a picture that never finishes (cairo stuck, a disk that
/// hangs) holds the end no longer than that, and what it leaves is said.
@Suite("File finisher")
struct FileFinisherTests {
    let dir = temporaryDirectory()

    /// A companion whose file is finished when the finisher asks (it leaves `done` behind,
    /// and drops the marker its file holds, as the MIDI thread drops a `--midi-marker`), or
    /// never (`finishes` false).
    final class Companion: RecordingCompanion, @unchecked Sendable {
        let done: String
        let finishes: Bool
        let markers: MarkerBook
        private(set) var waits: [(ticket: Int, timeout: Double)] = []
        init(done: String, finishes: Bool, markers: MarkerBook) {
            self.done = done
            self.finishes = finishes
            self.markers = markers
        }
        func fileBegan(_ file: RecordedFile) {}
        func fileEnded(_ file: RecordedFile) -> Int { 1 }
        func reached(_ timelineFrame: Int64) {}
        func refresh() {}
        func waitUntilFinished(_ ticket: Int, timeout: Double) -> Bool {
            waits.append((ticket, timeout))
            guard finishes else { return false }
            _ = markers.drop { 700 }
            FileManager.default.createFile(atPath: done, contents: Data())
            return true
        }
    }

    /// Finishes one closed file (frames 0 ..< 1000, its companion's ticket 1) with a hook that
    /// notes whether the companion's file was there when it ran; returns the finisher's lines,
    /// the hook's note and the companion.
    func finishOne(companionFinishes: Bool) throws -> (said: [String], hook: String, companion: Companion) {
        let path = dir + "/take.wav"
        let spec = RecordingSpec(path: path, format: try #require(SoundFormat.named("wav")), depth: .float, channels: 1,
                                 inputRate: 48000, fileRate: 48000, dither: false, splitFrames: nil,
                                 naming: FileNaming(base: path, armed: false, cut: false))
        let markers = MarkerBook()
        let companion = Companion(done: dir + "/take.mid", finishes: companionFinishes, markers: markers)
        let script = dir + "/hook.sh"
        try "if test -e '\(dir)/take.mid'; then echo after; else echo before; fi > '\(dir)/hook'\n".write(toFile: script, atomically: true, encoding: .utf8)
        let hook = CloseHook(command: "sh '\(script)'", events: nil)
        hook.start()
        let finisher = FileFinisher(spec: spec, pictures: nil, measuresLoudness: false, events: nil, hook: hook, companion: companion)
        var file = RecordedFile(path: path, take: 0, piece: 1, firstFrame: 0, endFrame: 1000, frames: 1000, ok: true)
        file.companionTicket = 1
        finisher.enqueue(FileFinisher.Job(file: file, markers: markers))
        finisher.finish()
        hook.finish()
        let note = try String(contentsOfFile: dir + "/hook", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        return (finisher.messages.drain().map(\.plain), note, companion)
    }

    @Test("a file's --on-close runs once what is written beside it is finished, and a marker dropped meanwhile is the file's")
    func hookWaitsForTheCompanion() throws {
        let (said, hook, companion) = try finishOne(companionFinishes: true)
        #expect(hook == "after")
        #expect(companion.waits.map(\.ticket) == [1] && companion.waits.first?.timeout == FileFinisher.companionWait)
        #expect(said.first == "marker 1 at 0.015 s: take.wav frame 700", "\(said)")
    }

    @Test("past the bound the finisher says so and the --on-close runs all the same")
    func lateCompanionIsSaid() throws {
        let (said, hook, _) = try finishOne(companionFinishes: false)
        #expect(hook == "before")
        #expect(said.contains { $0.contains("take.wav: what is written beside it (its .mid) was not finished within 10 s") }, "\(said)")
    }

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
        let markers = MarkerBook()
        for file in files { finisher.enqueue(.init(file: file, markers: markers)) }
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
