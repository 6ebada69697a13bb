import CSndfile
import Foundation
import JackwaveSoundFiles
import Testing

/// `CreatedFile`: how every file jackwave writes is created, never through a link, never
/// over a live writer's file, truncated only once it is known to be ours to truncate.
@Suite("Created files")
struct CreatedFileTests {
    let dir: String = {
        let path = NSTemporaryDirectory() + "jackwave-created-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    func contents(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }

    func failure(_ body: () throws(CreatedFileError) -> Int32) -> String? {
        do throws(CreatedFileError) {
            close(try body())
            return nil
        } catch {
            return error.reason
        }
    }

    @Test("a new file is created; an existing one is refused without --force and left as it was")
    func newRefusesExisting() throws {
        let path = dir + "/take.wav"
        #expect(failure { () throws(CreatedFileError) in try CreatedFile.open(path, policy: .new) } == nil)
        try "earlier".write(toFile: path, atomically: false, encoding: .utf8)
        #expect(failure { () throws(CreatedFileError) in try CreatedFile.open(path, policy: .new) }
                == "file exists")
        #expect(contents(path) == "earlier")
    }

    @Test("a dangling symbolic link at the target is refused, with and without --force, and its target never created",
          arguments: [CreatedFile.Policy.new, .replace])
    func danglingLinkRefused(policy: CreatedFile.Policy) throws {
        let link = dir + "/take-\(policy).wav", victim = dir + "/victim-\(policy).wav"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: victim)
        #expect(failure { () throws(CreatedFileError) in try CreatedFile.open(link, policy: policy) }
                == "is a symbolic link; jackwave never writes through one")
        #expect(!FileManager.default.fileExists(atPath: victim))
    }

    @Test("--force never writes through a link to an existing file: the file keeps its bytes")
    func linkToFileRefused() throws {
        let link = dir + "/take.wav", victim = dir + "/victim.wav"
        try "precious".write(toFile: victim, atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: victim)
        #expect(failure { () throws(CreatedFileError) in try CreatedFile.open(link, policy: .replace) } != nil)
        #expect(contents(victim) == "precious")
    }

    @Test("--force truncates a plain file, but not while another open of it holds the lock, which fails at once")
    func lockedFileUntouched() throws {
        let path = dir + "/live.wav"
        try "old take".write(toFile: path, atomically: false, encoding: .utf8)
        let first = try CreatedFile.open(path, policy: .replace)
        defer { close(first) }
        #expect(contents(path) == "")
        _ = "live".withCString { write(first, $0, 4) }
        #expect(CreatedFile.isBeingWritten(path))
        #expect(failure { () throws(CreatedFileError) in try CreatedFile.open(path, policy: .replace) } == CreatedFile.beingWritten)
        #expect(contents(path) == "live")
    }

    @Test("a lock goes with its descriptor: once closed, the file is an old file again")
    func lockReleasedOnClose() throws {
        let path = dir + "/old.wav"
        close(try CreatedFile.open(path, policy: .new))
        #expect(!CreatedFile.isBeingWritten(path))
        let again = try CreatedFile.open(path, policy: .replace)
        close(again)
    }

    @Test("a FIFO at the target is refused at once, not waited on")
    func fifoRefused() throws {
        let path = dir + "/pipe.wav"
        #expect(mkfifo(path, 0o644) == 0)
        #expect(failure { () throws(CreatedFileError) in try CreatedFile.open(path, policy: .replace) }
                == "is a FIFO or a socket, not a regular file")
    }

    @Test("--force refuses a file with another hard link: overwriting it would change the other name too")
    func hardLinkRefused() throws {
        let path = dir + "/shared.wav", other = dir + "/other-name.wav"
        try "both".write(toFile: path, atomically: false, encoding: .utf8)
        #expect(link(path, other) == 0)
        #expect(failure { () throws(CreatedFileError) in try CreatedFile.open(path, policy: .replace) }?.hasPrefix("has other hard links") == true)
        #expect(contents(other) == "both")
    }

    @Test("a temporary is a new hidden file beside its target, from mkostemp, with the umask's permissions, close-on-exec")
    func temporaryBeside() throws {
        let target = dir + "/plot.png"
        let a = try CreatedFile.temporary(beside: target), b = try CreatedFile.temporary(beside: target)
        defer { close(a.fd); close(b.fd); unlink(a.path); unlink(b.path) }
        #expect(a.path != b.path)
        #expect(a.path.hasPrefix(dir + "/.plot.png."))
        #expect(a.path.count == (dir + "/.plot.png.XXXXXX").count)
        var info = stat()
        #expect(fstat(a.fd, &info) == 0 && info.st_mode & 0o777 == 0o644 & ~CreatedFile.processUmask)
        #expect(fcntl(a.fd, F_GETFD) & FD_CLOEXEC != 0)
        #expect(CreatedFile.isBeingWritten(a.path))
    }

    @Test("moving a temporary into place replaces a link itself, never the file it points to")
    func moveReplacesLink() throws {
        let target = dir + "/out.png", victim = dir + "/victim.png"
        try "precious".write(toFile: victim, atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: target, withDestinationPath: victim)
        let t = try CreatedFile.temporary(beside: target)
        _ = "new".withCString { write(t.fd, $0, 3) }
        close(t.fd)
        try CreatedFile.moveIntoPlace(t.path, at: target)
        #expect(contents(victim) == "precious")
        #expect(contents(target) == "new")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: target)) == nil)
    }

    @Test("a sound file written is locked until it is closed, and reading refuses a FIFO at once")
    func soundFileLockAndFifo() throws {
        let path = dir + "/written.wav"
        let file = try SoundFile(writingTo: path, format: Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_16), channels: 1, sampleRate: 48000)
        #expect(CreatedFile.isBeingWritten(path))
        #expect {
            _ = try SoundFile(writingTo: path, format: Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_16), channels: 1, sampleRate: 48000,
                              policy: .replace)
        } throws: { ($0 as? SoundFileError)?.reason == CreatedFile.beingWritten }
        file.close()
        #expect(!CreatedFile.isBeingWritten(path))
        let fifo = dir + "/fifo.wav"
        #expect(mkfifo(fifo, 0o644) == 0)
        #expect {
            _ = try SoundFile(readingFrom: fifo)
        } throws: { ($0 as? SoundFileError)?.message == "\(fifo): is not a regular file (a FIFO, a socket or a device); jackwave reads only plain files" }
    }
}
