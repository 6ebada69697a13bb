import Foundation
import Glibc
import JackwaveRecording
import JackwaveRunSupport
import JackwaveSoundFiles
import JackwaveTestSupport
import Testing

/// What a run says of retention (`FileKeeper`): each deletion a line and a `file_deleted`
/// event, whatever happens to the manifest after; a manifest that cannot be saved a line and
/// a `retention_failed` event, once until it is saved again.
@Suite("Retention's lines and events")
struct FileKeeperTests {
    let dir: String = {
        let path = NSTemporaryDirectory() + "jackwave-keeper-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    /// Pieces of an earlier run, `m-001.wav`…, each `bytes` long, listed in `m`'s manifest.
    func earlierRun(pieces: Int, bytes: Int) throws {
        let r = try Retention(root: dir, name: "m", limits: RetentionLimits(bytes: 1 << 30)) { _ in }
        for i in 1...pieces {
            let file = try ExclusiveFile.create(under: dir, relative: String(format: "m-%03d.wav", i))
            try r.record(file)
            let data = [UInt8](repeating: 1, count: bytes)
            #expect(write(file.descriptor, data, data.count) == data.count)
            close(file.descriptor)
            r.release(file.relativePath)
        }
        #expect(r.prune().unsaved == nil)
    }

    @Test("deletions are said, line and event, when the manifest cannot be saved after them; the failed save is said once")
    func deletionsSaidWhenManifestUnsaved() throws {
        try earlierRun(pieces: 3, bytes: 1 << 20)
        let messages = MessageQueue()
        let events = try EventLog(path: dir + "/events.jsonl")
        let keeper = try FileKeeper(path: dir + "/m.wav", limits: RetentionLimits(bytes: 1 << 20), messages: messages, events: events)
        // After the start, a folder takes the manifest's place: no save can replace it, even as root.
        let manifest = dir + "/.jackwave-m.manifest"
        #expect(rename(manifest, dir + "/manifest.aside") == 0 && mkdir(manifest, 0o700) == 0)
        keeper.prune(frame: 48000)
        keeper.prune(frame: 96000)
        let lines = messages.drain().map(\.plain)
        #expect(lines.contains { $0.hasPrefix("retention: deleted m-001.wav (1.0 MB;") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("retention: deleted m-002.wav (1.0 MB;") }, "\(lines)")
        #expect(lines.filter { $0.hasPrefix("retention: the manifest cannot be saved (.jackwave-m.manifest: cannot be written: Is a directory)") }.count == 1,
                "\(lines)")
        // The events file is written by a thread of its own: wait for it to have written.
        #expect(events.flush())
        let logged = try EventStream.read(dir + "/events.jsonl")
        #expect(logged.filter { $0["event"] as? String == "file_deleted" }.compactMap { $0["path"] as? String } == ["m-001.wav", "m-002.wav"])
        let failed = logged.filter { $0["event"] as? String == "retention_failed" }
        #expect(failed.count == 1 && (failed.first?["reason"] as? String)?.hasSuffix("Is a directory") == true, "\(failed)")
        // The manifest's place free again: saved, and said.
        #expect(rmdir(manifest) == 0)
        keeper.prune(frame: 144000)
        #expect(messages.drain().map(\.plain) == ["retention: the manifest is saved again"])
    }
}
