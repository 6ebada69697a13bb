import Foundation
import JackwaveSoundFiles
import JackwaveTestSupport
import Testing

/// `jackwave plot` of files made to hurt it: one line, exit 2, no picture, and a peak memory
/// (GNU time's maximum resident set) that does not follow the file's size. No server.
@Suite("Bounded reading of bad files", .serialized)
struct BadFilesEndToEndTests {
    let dir = temporaryDirectory()

    /// Runs `jackwave ARGS` under `/usr/bin/time -q -f %M`; its output, and its peak RSS in
    /// KiB (time's last line, taken off stderr).
    func measured(_ arguments: [String], timeout: Double = 60) throws -> (run: Run.Output, peakKiB: Int) {
        let out = try Run.tool("/usr/bin/time", ["-q", "-f", "%M", Run.jackwave] + arguments, server: nil, timeout: timeout)
        var lines = out.stderr.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        let peak = Int(lines.popLast() ?? "") ?? -1
        let stderr = lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n"
        return (Run.Output(status: out.status, stdout: out.stdout, stderr: stderr), peak)
    }

    @Test("a 1 GB level stream (sparse: a header, a row, then a gigabyte of NULs) is refused at its first overlong line, in a few MB")
    func gigabyteStream() throws {
        let path = dir + "/huge.csv"
        try "frame,time,in_1\n0,0.000000000,0.5\n".write(toFile: path, atomically: false, encoding: .utf8)
        #expect(truncate(path, 1 << 30) == 0)
        let (run, peak) = try measured(["plot", path, "-o", dir + "/huge.png"])
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr == "jackwave: error: \(path) line 3: longer than 1048576 bytes, which no level stream's line is\n")
        #expect(peak > 0 && peak < 64 * 1024, "peak RSS \(peak) KiB")
        #expect(!FileManager.default.fileExists(atPath: dir + "/huge.png"))
    }

    @Test("a level stream whose header names 200,000 channels is refused before anything is sized by it")
    func wideHeader() throws {
        let path = dir + "/wide.csv"
        // Short names, so that the header is a line a level stream may have (under 1 MiB).
        let header = "frame,time," + Array(repeating: "c", count: 200_000).joined(separator: ",")
        try (header + "\n0,0," + Array(repeating: "0.5", count: 200_000).joined(separator: ",") + "\n")
            .write(toFile: path, atomically: false, encoding: .utf8)
        let (run, peak) = try measured(["plot", path, "-o", dir + "/wide.png"])
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr == "jackwave: error: \(path) line 1: 200000 channels; a level stream has at most 1024\n")
        #expect(peak > 0 && peak < 96 * 1024, "peak RSS \(peak) KiB")
    }

    @Test("a FIFO named .csv, .wav or .mid is refused at once: no writer is waited for", arguments: ["pipe.csv", "pipe.wav", "pipe.mid"])
    func fifo(name: String) throws {
        let path = dir + "/" + name
        #expect(mkfifo(path, 0o644) == 0)
        let started = Date()
        let run = try Run.jackwave(["plot", path, "-o", dir + "/pipe.png"], server: nil, timeout: 30)
        #expect(Date().timeIntervalSince(started) < 20)
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.contains("not a regular file"), "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1)
    }

    @Test("a 1024-channel WAV of four frames is refused in the user's terms, in a few MB, and so is one whose data chunk lies")
    func wideWav() throws {
        let whole = dir + "/wide.wav", lying = dir + "/lying.wav"
        try Data(TestFiles.wav(channels: 1024, frames: 4, holding: 4 * 2048)).write(to: URL(fileURLWithPath: whole))
        try Data(TestFiles.wav(channels: 1024, frames: 4, holding: 100)).write(to: URL(fileURLWithPath: lying))
        let (run, peak) = try measured(["plot", whole, "-o", dir + "/wide.png"])
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr == "jackwave: error: \(whole): 1024 lanes (one per channel) do not fit in a picture; at most 480 do, 16384 pixels high\n")
        #expect(peak > 0 && peak < 64 * 1024, "peak RSS \(peak) KiB")
        let (lie, _) = try measured(["plot", lying, "-o", dir + "/lying.png"])
        #expect(lie.status == 2, "\(lie.stderr)")
        #expect(lie.stderr == "jackwave: error: \(lying): the recording is empty\n", "\(lie.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/wide.png") && !FileManager.default.fileExists(atPath: dir + "/lying.png"))
    }
    @Test("levels refuses a float file holding a NaN or an infinite sample: exit 2, one line naming its frame, no output",
          arguments: [Float.nan, .infinity, -.infinity])
    func nonFiniteSampleRefused(bad: Float) throws {
        let path = dir + "/odd-\(UUID().uuidString.prefix(8)).wav", output = path + ".csv"
        var samples = (0..<48000).map { Float(0.5 * sin(2 * Double.pi * 997 * Double($0) / 48000)) }
        samples[30_000] = bad
        let format = try #require(SoundFormat.forPath(path)?.formatWord(depth: .float))
        let file = try SoundFile(writingTo: path, format: format, channels: 1, sampleRate: 48000)
        #expect(samples.withUnsafeBufferPointer { file.write($0.baseAddress!, count: samples.count) } == samples.count)
        file.close()
        let run = try Run.jackwave(["levels", path, "-o", output], server: nil)
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.hasPrefix("jackwave: error: levels: \(path) frame 30000: a sample that is not a finite number")
                && run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }
}
