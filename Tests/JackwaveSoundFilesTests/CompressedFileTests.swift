import CSndfile
import Foundation
import JackwaveSoundFiles
import JackwaveTestSupport
import JackwaveVocabulary
import Testing

/// MP3 through libsndfile (LAME), and `--quality` for MP3, Vorbis and Opus: what libsndfile
/// is told, and what the files come out as, measured by ffprobe (a peer's reading).
@Suite("Compressed files")
struct CompressedFileTests {
    let dir: String = {
        let path = NSTemporaryDirectory() + "jackwave-compressed-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    @Test("--quality reads a quality from 0 to 1, or a bit rate in kbit/s", arguments: [
        ("0.6", CompressionQuality.quality(0.6)), ("1", .quality(1)), ("0", .quality(0)),
        ("128k", .bitRate(kilobitsPerSecond: 128)), ("96K", .bitRate(kilobitsPerSecond: 96)),
        ("320kbps", .bitRate(kilobitsPerSecond: 320)),
    ])
    func parse(text: String, expected: CompressionQuality) {
        #expect(CompressionQuality.parse(text) == expected)
    }

    @Test("--quality refuses what is neither", arguments: ["1.5", "-0.1", "k", "0k", "-64k", "fast", "nan", "128kb"])
    func parseRefuses(text: String) {
        #expect(CompressionQuality.parse(text) == nil)
    }

    @Test("an MP3 bit rate becomes libsndfile's constant mode at the level that lands on it; other rates are refused")
    func mp3BitRate() throws {
        let mp3 = try #require(SoundFormat.named("mp3"))
        let settings = try CompressionQuality.bitRate(kilobitsPerSecond: 128).settings(for: mp3, channels: 2, sampleRate: 48000)
        #expect(settings.bitrateMode == Int32(SF_BITRATE_MODE_CONSTANT))
        // libsndfile's own formula, (int)(320 − level × 288), must give 128.
        #expect(Int(exactly: (320 - settings.compressionLevel * 288).rounded(.towardZero)) == 128)
        #expect(throws: FileChoiceError("\(setting: .quality) 100k: MP3 at 48000 Hz takes 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320 kbit/s")) {
            try CompressionQuality.bitRate(kilobitsPerSecond: 100).settings(for: mp3, channels: 2, sampleRate: 48000)
        }
        for k in CompressionQuality.mp3BitRates(sampleRate: 22050) {
            let level = try CompressionQuality.bitRate(kilobitsPerSecond: k).settings(for: mp3, channels: 1, sampleRate: 22050).compressionLevel
            #expect(Int(exactly: (160 - level * 152).rounded(.towardZero)) == k, "\(k) kbit/s at 22.05 kHz")
        }
    }

    @Test("a bit rate for Vorbis, any quality for a lossless format, and Opus beyond 6–256 kbit/s per channel are refused")
    func refusals() throws {
        let ogg = try #require(SoundFormat.named("ogg")), flac = try #require(SoundFormat.named("flac"))
        let opus = try #require(SoundFormat.named("opus"))
        #expect(throws: FileChoiceError.self) { try CompressionQuality.bitRate(kilobitsPerSecond: 128).settings(for: ogg, channels: 2, sampleRate: 48000) }
        #expect(throws: FileChoiceError("\(setting: .quality) is for lossy files (mp3, ogg, opus), not flac")) {
            try CompressionQuality.quality(0.5).settings(for: flac, channels: 2, sampleRate: 48000)
        }
        #expect(throws: FileChoiceError.self) { try CompressionQuality.bitRate(kilobitsPerSecond: 600).settings(for: opus, channels: 2, sampleRate: 48000) }
        #expect(throws: FileChoiceError.self) { try CompressionQuality.bitRate(kilobitsPerSecond: 8).settings(for: opus, channels: 2, sampleRate: 48000) }
        #expect(throws: FileChoiceError("\(setting: .streamQuality) 600k: Opus takes 6 to 256 kbit/s per channel (12 to 512k for 2)")) {
            try CompressionQuality.bitRate(kilobitsPerSecond: 600).settings(for: opus, channels: 2, sampleRate: 48000, option: .streamQuality)
        }
    }

    @Test("MP3 is among the formats this machine writes (libsndfile built with LAME)")
    func mp3IsListed() throws {
        #expect(SoundFile.builtFormats.majors.contains(Int32(SF_FORMAT_MPEG)))
        #expect(FormatCatalog.writable().contains { $0.format.name == "mp3" && $0.depths == ["mp3"] })
        #expect(SoundFormat.forPath("show.MP3")?.name == "mp3")
        let mp3 = try #require(SoundFormat.named("mp3"))
        #expect(throws: FileChoiceError("\(setting: .record) x.mp3: mp3 files hold 1 or 2 channels, not 3")) {
            try FileChoice.checkChannels(3, format: mp3, path: "x.mp3")
        }
    }

    /// Writes 2 s of a 997 Hz tone (mono, or the same on two channels) with `quality`.
    func write(_ name: String, channels: Int = 2, quality: CompressionQuality?) throws -> String {
        let path = dir + "/" + name
        let format = try #require(SoundFormat.forPath(path))
        let file = try SoundFile(writingTo: path, format: try #require(format.formatWord(depth: nil)), channels: channels, sampleRate: 48000)
        try file.applyCodecSettings(quality.map { try $0.settings(for: format, channels: channels, sampleRate: 48000) })
        var frames = [Float](repeating: 0, count: 96000 * channels)
        for i in 0..<96000 {
            // A tone and a little noise, so that variable-rate codecs have something to spend bits on.
            let value = Float(0.5 * sin(2 * Double.pi * 997 * Double(i) / 48000)) + Float.random(in: -0.05...0.05)
            for c in 0..<channels { frames[i * channels + c] = value }
        }
        #expect(frames.withUnsafeBufferPointer { file.write($0.baseAddress!, count: 96000) } == 96000)
        #expect(file.close() == nil)
        return path
    }

    /// ffprobe's bit rate of a file, bits per second: its stream's (MP3 frames say theirs),
    /// or the file's average (`format`: an Ogg Opus stream states none).
    func probedBitRate(_ path: String, of entry: String = "stream") throws -> Int {
        let out = try Self.run("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "\(entry)=bit_rate", "-of", "csv=p=0", path])
        return try #require(Int(out.trimmingCharacters(in: .whitespacesAndNewlines)), "ffprobe said \(out)")
    }

    @Test("--quality 128k makes an MP3 that ffprobe reads as 128 kbit/s, constant; 64k an Opus file near 64 kbit/s")
    func bitRatesAsWritten() throws {
        #expect(try probedBitRate(write("cbr.mp3", quality: .bitRate(kilobitsPerSecond: 128))) == 128_000)
        let opus = try probedBitRate(write("target.opus", quality: .bitRate(kilobitsPerSecond: 64)), of: "format")
        // Opus is variable-rate around its target; ffprobe reads the file's average.
        #expect(abs(Double(opus) - 64_000) / 64_000 < 0.2, "\(opus) bit/s")
    }

    @Test("a higher --quality makes bigger MP3, Vorbis and Opus files", arguments: ["mp3", "ogg", "opus"])
    func qualityOrders(ext: String) throws {
        let low = try write("low.\(ext)", quality: .quality(0.1))
        let high = try write("high.\(ext)", quality: .quality(0.9))
        let lowBytes = try #require(try FileManager.default.attributesOfItem(atPath: low)[.size] as? Int)
        let highBytes = try #require(try FileManager.default.attributesOfItem(atPath: high)[.size] as? Int)
        #expect(highBytes > lowBytes * 3 / 2, "\(lowBytes) and \(highBytes) bytes")
    }

    @Test("an MP3 file reads back through libsndfile with its length and the tone")
    func mp3ReadsBack() throws {
        let path = try write("back.mp3", channels: 1, quality: nil)
        let file = try SoundFile(readingFrom: path)
        #expect(file.channels == 1 && file.sampleRate == 48000)
        var samples = [Float](repeating: 0, count: 100_000)
        let read = samples.withUnsafeMutableBufferPointer { file.read(into: $0.baseAddress!, count: 100_000) }
        // LAME's delay and padding: decoders that skip them (the LAME tag) give 96000 frames.
        #expect(abs(read - 96000) <= 2304, "\(read) frames")
        let middle = Array(samples[20000..<70000])
        // Rising through ±0.25 (half the tone's amplitude), so that the ±0.05 of noise near a
        // zero crossing cannot count one twice (CI: 1044 for 1039 by plain sign changes).
        var crossings = 0, below = false
        for x in middle {
            if x < -0.25 { below = true } else if x > 0.25 && below { crossings += 1; below = false }
        }
        #expect(abs(Double(crossings) / (50000.0 / 48000) - 997) < 5, "\(crossings) rising crossings in 50000 frames")
    }

    @Test("encoding into memory gives the file's bytes: an Ogg stream of whole pages, an MP3 stream that decodes whole")
    func encodingIntoMemory() throws {
        for (name, format) in [("mem.ogg", "ogg"), ("mem.opus", "opus"), ("mem.mp3", "mp3")] {
            let bytes = EncodedBytes()
            let word = try #require(SoundFormat.named(format)?.formatWord(depth: nil), "\(format)")
            let file = try SoundFile(encodingInto: bytes, format: word, channels: 2, sampleRate: 48000)
            try file.applyCodecSettings(nil)
            let frames = (0..<(96000 * 2)).map { Float(0.3 * sin(Double($0 / 2) * 0.13)) }
            #expect(frames.withUnsafeBufferPointer { file.write($0.baseAddress!, count: 96000) } == 96000)
            #expect(file.close() == nil)
            var taken = Data()
            bytes.take { taken.append($0) }
            #expect(bytes.count == 0)
            if format == "mp3" { #expect(bytes.rewrittenBytes > 0, "the Xing frame rewritten at close is left out") }
            let path = dir + "/" + name
            try taken.write(to: URL(fileURLWithPath: path))
            if format != "mp3" { #expect(taken.prefix(4) == Data("OggS".utf8)) }
            let raw = path + ".f32"
            _ = try Self.run("/usr/bin/ffmpeg", ["-v", "error", "-i", path, "-f", "f32le", "-ac", "1", raw])
            let decoded = try Data(contentsOf: URL(fileURLWithPath: raw))
            // Whole, give or take the codec's own delay and padding: Ogg's granule positions
            // trim them; a stream's MP3 has no LAME tag to say them (LAME's delay and padding
            // come on top, up to 3 frames of 1152).
            #expect(abs(decoded.count / 4 - 96000) <= (format == "mp3" ? 3 * 1152 : 1152), "\(name): \(decoded.count / 4) frames")
        }
    }

    static func run(_ tool: String, _ arguments: [String]) throws -> String {
        try Run.tool(tool, arguments, server: nil).stdout
    }
}
