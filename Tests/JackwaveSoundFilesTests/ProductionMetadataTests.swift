import Foundation
import JackwaveSoundFiles
import JackwaveTestSupport
import Testing

/// The `iXML` chunk and the `bext` description a recordist's file carries: written before
/// the audio, read back by Foundation's XML parser, and agreeing with `bext`.
@Suite("Production metadata: iXML and bext")
struct ProductionMetadataTests {
    let dir = temporaryDirectory()

    static let production = ProductionInfo(project: "Feature", scene: "12A", firstTake: 3, tape: "R07", note: "wind <gusts> & rain")
    static let timecode = FileTimestamp(samplesSinceMidnight: 172_800_000 + 5 << 32, sampleRate: 48000,
                                        timecode: TimecodeLabel(rate: "30000/1001", dropFrame: true, text: "01:00:00;00"))

    func document(_ stamp: FileTimestamp = Self.timecode, tracks: [String] = ["system:capture_1", "system:capture_2"]) -> IXMLDocument {
        IXMLDocument(production: Self.production, take: 3, timestamp: stamp, fileUID: "F" + String(repeating: "0", count: 31),
                     familyUID: "A" + String(repeating: "1", count: 31), piece: 2, trackNames: tracks, bitDepth: 24)
    }

    /// A 24-bit WAV holding `ixml` and a `bext` at `stamp`, with `frames` frames of silence.
    func write(_ path: String, ixml: IXMLDocument, stamp: FileTimestamp?, frames: Int = 480, format: String = "wav") throws -> SoundFile {
        let word = try #require(SoundFormat.named(format)?.formatWord(depth: .int24))
        let file = try SoundFile(writingTo: path, format: word, channels: 2, sampleRate: 48000)
        #expect(file.setBroadcastInfo(BroadcastInfo(start: WallClockTime(seconds: 1_700_000_000, nanoseconds: 0), offset: 0,
                                                    sampleRate: 48000, timecode: stamp,
                                                    lines: Self.production.descriptionLines(take: 3))))
        #expect(file.setChunk(id: IXMLDocument.chunkID, bytes: Array(ixml.xml.utf8)))
        let zeros = [Float](repeating: 0, count: 2 * frames)
        _ = zeros.withUnsafeBufferPointer { file.write($0.baseAddress!, count: frames) }
        return file
    }

    @Test("every iXML field reads back with the value given")
    func fieldsReadBack() throws {
        let path = dir + "/fields.wav"
        try write(path, ixml: document(), stamp: Self.timecode).close()
        let fields = try IXMLFields(path)
        #expect(fields["PROJECT"] == "Feature" && fields["SCENE"] == "12A" && fields["TAKE"] == "3" && fields["TAPE"] == "R07")
        #expect(fields["NOTE"] == "wind <gusts> & rain")
        #expect(fields["FILE_UID"] == "F" + String(repeating: "0", count: 31))
        #expect(fields["FILE_SET/FAMILY_UID"] == "A" + String(repeating: "1", count: 31) && fields["FILE_SET/FILE_SET_INDEX"] == "2")
        #expect(fields["SPEED/TIMECODE_RATE"] == "30000/1001" && fields["SPEED/TIMECODE_FLAG"] == "DF")
        #expect(fields["SPEED/TIMESTAMP_SAMPLES_SINCE_MIDNIGHT_HI"] == "5")
        #expect(fields["SPEED/TIMESTAMP_SAMPLES_SINCE_MIDNIGHT_LO"] == "172800000")
        #expect(fields["SPEED/TIMESTAMP_SAMPLE_RATE"] == "48000" && fields["SPEED/FILE_SAMPLE_RATE"] == "48000")
        #expect(fields["SPEED/AUDIO_BIT_DEPTH"] == "24")
        #expect(fields["TRACK_LIST/TRACK_COUNT"] == "2")
        #expect(fields.values["TRACK_LIST/TRACK/NAME"] == ["system:capture_1", "system:capture_2"])
        #expect(fields.values["TRACK_LIST/TRACK/CHANNEL_INDEX"] == ["1", "2"])
    }

    @Test("the iXML timestamp is the bext TimeReference")
    func timestampAgreesWithBext() throws {
        let path = dir + "/agree.wav"
        try write(path, ixml: document(), stamp: Self.timecode).close()
        let fields = try IXMLFields(path)
        let bext = try #require(try SoundFile(readingFrom: path).broadcastInfo)
        let hi = try #require(UInt64(fields["SPEED/TIMESTAMP_SAMPLES_SINCE_MIDNIGHT_HI"] ?? ""))
        let lo = try #require(UInt64(fields["SPEED/TIMESTAMP_SAMPLES_SINCE_MIDNIGHT_LO"] ?? ""))
        #expect(hi << 32 | lo == bext.timeReference)
        #expect(bext.timeReference == Self.timecode.samplesSinceMidnight)
    }

    @Test("the iXML chunk lies before the audio data, in WAV and in RF64")
    func chunkBeforeData() throws {
        for format in ["wav", "rf64"] {
            let path = dir + "/order.\(format)"
            try write(path, ixml: document(), stamp: Self.timecode, format: format).close()
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            let ixml = bytes.firstRange(of: Array("iXML".utf8))?.lowerBound
            let data = bytes.firstRange(of: Array("data".utf8))?.lowerBound
            #expect(ixml != nil && data != nil && ixml! < data!, "\(format): iXML at \(ixml ?? -1), data at \(data ?? -1)")
            #expect((try? IXMLFields(path))?["SCENE"] == "12A", "\(format)")
        }
    }

    @Test("a header brought up to date mid-recording carries the iXML and bext, as a crash would leave it")
    func openFileIsValid() throws {
        let path = dir + "/open.wav"
        let file = try write(path, ixml: document(), stamp: Self.timecode, frames: 4800)
        file.updateHeader()
        let copy = dir + "/crashed.wav"
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        file.close()
        let fields = try IXMLFields(copy)
        #expect(fields["SCENE"] == "12A")
        let crashed = try SoundFile(readingFrom: copy)
        #expect(crashed.frames == 4800 && crashed.broadcastInfo?.timeReference == Self.timecode.samplesSinceMidnight)
    }

    @Test("a file rewritten for its cue points keeps its iXML")
    func cuesKeepIXML() throws {
        let path = dir + "/cued.wav"
        try write(path, ixml: document(), stamp: Self.timecode).close()
        try SoundFile.addCues([100], to: path)
        #expect(try IXMLFields(path)["SCENE"] == "12A")
        #expect(try SoundFile(readingFrom: path).cues.count == 1)
    }

    @Test("a free-run file's iXML says so, and names no timecode rate")
    func freeRun() throws {
        let path = dir + "/free.wav"
        let stamp = FileTimestamp(samplesSinceMidnight: 123_456, sampleRate: 48000, timecode: nil)
        try write(path, ixml: document(stamp), stamp: nil).close()
        let fields = try IXMLFields(path)
        #expect(fields["SPEED/TIMECODE_RATE"] == nil && fields["SPEED/TIMECODE_FLAG"] == nil)
        #expect(fields["SPEED/NOTE"]?.contains("free run") == true, "\(fields.values)")
        #expect(fields["SPEED/TIMESTAMP_SAMPLES_SINCE_MIDNIGHT_LO"] == "123456")
    }

    @Test("control characters in outside text are dropped, and markup is escaped")
    func outsideTextEscaped() throws {
        let path = dir + "/escaped.wav"
        try write(path, ixml: document(tracks: ["a\u{1}b:<out>", "\"x\" & 'y'"]), stamp: Self.timecode).close()
        #expect(try IXMLFields(path).values["TRACK_LIST/TRACK/NAME"] == ["ab:<out>", "\"x\" & 'y'"])
    }

    @Test("the bext description leads with the production fields, one per line, as field recorders write them")
    func bextDescription() throws {
        let path = dir + "/description.wav"
        try write(path, ixml: document(), stamp: Self.timecode).close()
        let description = try #require(try SoundFile(readingFrom: path).broadcastInfo?.description)
        let lines = description.components(separatedBy: "\r\n")
        #expect(Array(lines.prefix(5)) == ["sPROJECT=Feature", "sSCENE=12A", "sTAKE=3", "sTAPE=R07", "sNOTE=wind <gusts> & rain"])
        #expect(lines.last?.contains("timecode 01:00:00;00 at 30000/1001 DF from LTC") == true, "\(description)")
    }

    @Test("each identifier made is 32 hexadecimal digits, and no two are the same")
    func uniqueIdentifiers() {
        let made = (0..<1000).map { _ in IXMLDocument.makeUID() }
        #expect(Set(made).count == 1000)
        #expect(made.allSatisfy { $0.count == 32 && $0.allSatisfy(\.isHexDigit) })
    }
}
