import CSndfile
import Foundation
import JackwaveSoundFiles
import Testing

/// Sound files without a server: the `bext` chunk, what libsndfile makes of a `.wav` file
/// past 4 GB, and the formats this machine writes.
@Suite("File writing")
struct FileWritingTests {
    let dir: String = {
        let path = NSTemporaryDirectory() + "jackwave-filewriting-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    @Test("the bext chunk round-trips through libsndfile")
    func bextRoundTrip() throws {
        let path = dir + "/bext.wav"
        let start = WallClockTime(seconds: 1_700_000_000, nanoseconds: 250_000_000)
        let info = BroadcastInfo(start: start, offset: 0, sampleRate: 48000)
        let file = try SoundFile(writingTo: path, format: try #require(SoundFormat.named("wav")?.formatWord(depth: .int16)), channels: 1, sampleRate: 48000)
        #expect(file.setBroadcastInfo(info))
        let zeros = [Float](repeating: 0, count: 100)
        _ = zeros.withUnsafeBufferPointer { file.write($0.baseAddress!, count: 100) }
        file.close()
        let back = try #require(try SoundFile(readingFrom: path).broadcastInfo)
        #expect(back == info)
        #expect(back.originator == "jackwave")
        #expect(back.timeReference == UInt64((start.secondsSinceLocalMidnight * 48000).rounded()))
    }

    @Test("a write of many wide frames, handed to libsndfile a piece at a time, reads back whole and in order")
    func wideWriteInPieces() throws {
        let path = dir + "/wide.wav", channels = 1024, frames = 300   // 1.2 MB: several pieces
        let samples = (0..<(channels * frames)).map { Float($0 % 65_521) / 65_536 }
        let file = try SoundFile(writingTo: path, format: try #require(SoundFormat.named("wav")?.formatWord(depth: .float)),
                                 channels: channels, sampleRate: 48000)
        #expect(samples.withUnsafeBufferPointer { file.write($0.baseAddress!, count: frames) } == frames)
        file.close()
        let back = try SoundFile(readingFrom: path)
        var read = [Float](repeating: -1, count: channels * frames)
        #expect(read.withUnsafeMutableBufferPointer { back.read(into: $0.baseAddress!, count: frames) } == frames)
        #expect(read == samples)
    }

    @Test("a later piece's bext continues the first one's time reference, frame for frame")
    func bextContinues() {
        let start = WallClockTime(seconds: 1_700_000_000, nanoseconds: 999_000_000)
        let first = BroadcastInfo(start: start, offset: 0, sampleRate: 4096)
        let third = BroadcastInfo(start: start, offset: 2 * 12288, sampleRate: 4096)
        #expect(third.timeReference == first.timeReference + 24576)
        #expect(third.originationTime != first.originationTime)  // 6 s later
    }

    @Test("the ISO 8601 start has milliseconds and the UTC offset")
    func iso8601() {
        let t = WallClockTime(seconds: 1_700_000_000, nanoseconds: 123_456_789)
        let iso = t.iso8601
        #expect(iso.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.123[+-]\d\d:\d\d$"#, options: .regularExpression) != nil, "\(iso)")
        #expect(iso.hasPrefix(t.localDate + "T" + t.localTime))
    }

    /// A short `.wav` as jackwave writes it (16-bit, bext), left open.
    func shortWav(_ path: String) throws -> SoundFile {
        let format = try #require(SoundFormat.named("wav"))
        let file = try SoundFile(writingTo: path, format: try #require(format.formatWord(depth: .int16)), channels: 2, sampleRate: 48000,
                                 rf64AutoDowngrade: format.downgradesToWAV)
        file.setBroadcastInfo(BroadcastInfo(start: .now(), offset: 0, sampleRate: 48000))
        let ramp = (0..<2000).map { Float($0) / 32768 }
        #expect(ramp.withUnsafeBufferPointer { file.write($0.baseAddress!, count: 1000) } == 1000)
        return file
    }

    @Test("a short .wav is a plain RIFF/WAVE file")
    func shortWavIsRiff() throws {
        let path = dir + "/short.wav"
        try shortWav(path).close()
        let head = try #require(FileHandle(forReadingAtPath: path)).readData(ofLength: 12)
        #expect(String(decoding: head.prefix(4), as: UTF8.self) == "RIFF")
        #expect(String(decoding: head.suffix(4), as: UTF8.self) == "WAVE")
        let read = try SoundFile(readingFrom: path)
        #expect(read.format & Int32(SF_FORMAT_TYPEMASK) == Int32(SF_FORMAT_WAVEX))
        #expect(read.frames == 1000)
    }

    /// Honest about what it tests: libsndfile decides RIFF or RF64 from the file's real length
    /// (`fstat`) at each header update, so a file made sparse past 4 GB behind its back gets
    /// the RF64 header a 4 GB recording would, without writing 4 GB.
    @Test("a .wav that passes 4 GB becomes RF64 (a sparse file), keeping its bext and audio")
    func pastFourGigabytesIsRF64() throws {
        let path = dir + "/big.wav"
        let file = try shortWav(path)
        file.updateHeader()
        let size: Int64 = 5_000_000_000
        guard truncate(path, off_t(size)) == 0 else { throw CocoaError(.fileWriteOutOfSpace) }
        defer { unlink(path) }
        file.updateHeader()
        file.close()
        let head = try #require(FileHandle(forReadingAtPath: path)).readData(ofLength: 16)
        #expect(String(decoding: head.prefix(4), as: UTF8.self) == "RF64")
        #expect(String(decoding: head.suffix(4), as: UTF8.self) == "ds64")
        let read = try SoundFile(readingFrom: path)
        #expect(read.format & Int32(SF_FORMAT_TYPEMASK) == Int32(SF_FORMAT_RF64))
        #expect(read.frames > 1_249_000_000)   // (5e9 - header) / 4 bytes per frame
        #expect(read.broadcastInfo?.originator == "jackwave")
        var back = [Float](repeating: 0, count: 2000)
        #expect(back.withUnsafeMutableBufferPointer { read.read(into: $0.baseAddress!, count: 1000) } == 1000)
        #expect(back == (0..<2000).map { Float($0) / 32768 })
    }

    @Test("--formats lists what this libsndfile writes, one line each with extension and depths")
    func formatList() {
        let lines = FormatCatalog.lines()
        #expect(lines.contains { $0.hasPrefix("wav ") && $0.contains(".wav") && $0.contains("16 24 32 float") })
        #expect(lines.contains { $0.hasPrefix("flac ") && $0.contains("16 24 ") && !$0.contains("float ") })
        #expect(lines.allSatisfy { $0.contains(".") })
    }
}
