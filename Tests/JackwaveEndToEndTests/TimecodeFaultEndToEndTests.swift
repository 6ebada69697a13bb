import Foundation
import JackwaveTestSupport
import Testing

/// `--ltc` fails alone: noise on its input (no code ever locks) and a reader that stalls until
/// its ring is full cost the audio nothing, with a writer's ring of one second and a file
/// every second, where each file's start asks for its timecode. Each file then carries the
/// wall clock's time, its iXML says free run, and the run says why (a line, an event per
/// file, the summary). On both servers: the LTC input is an audio input like any other.
@Suite("LTC faults: the audio goes on", .serialized)
struct TimecodeFaultEndToEndTests {
    /// Seconds recorded, in pieces of one second, through a one-second ring.
    static let seconds = 6.0

    /// The LTC peer, `ltcTAG:ltc`, playing `arguments` (code, or noise); "ready" once active.
    static func ltcPeer(_ fault: SideJobFault, _ arguments: [String]) throws -> Run.Running {
        let peer = try Run.start(Tools.ltcSource, ["ltc" + fault.tag] + arguments + ["--seconds", "60"], server: fault.server.name)
        guard waitUntil(timeout: 30, { peer.stdoutSoFar.contains("ready") || !peer.isRunning }), peer.isRunning else {
            throw TestFailure("the LTC source did not start: \(peer.stderrSoFar)")
        }
        return peer
    }

    /// jackwave's arguments: the pattern recorded, the LTC peer read, a file a second.
    static func arguments(_ fault: SideJobFault, seconds: Double) -> [String] {
        ["--record", fault.dir + "/take.wav", "-p", fault.sourcePort, "-c", "1", "--ltc", "ltc\(fault.tag):ltc", "--split", "1", "--buffer", "1",
         "-d", "\(seconds)", "--no-meter", "--events", fault.dir + "/events.jsonl"]
    }

    /// Every piece took the wall clock's time: its iXML says free run and carries no
    /// timecode rate; one `timecode_missing` event each, for one of the reasons given.
    static func expectWallClock(_ fault: SideJobFault, reasons: Set<String>, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let pieces = try fault.pieces(fault.dir + "/take.wav")
        #expect(pieces.count == Int(seconds), "\(pieces)", sourceLocation: sourceLocation)
        for piece in pieces {
            let ixml = try IXMLFields(piece)
            #expect(ixml["SPEED/NOTE"] == "free run: the timestamp is the wall clock, not timecode", sourceLocation: sourceLocation)
            #expect(ixml["SPEED/TIMECODE_RATE"] == nil, sourceLocation: sourceLocation)
        }
        let missing = try SideJobFault.events(fault.dir + "/events.jsonl", "timecode_missing")
        #expect(missing.compactMap { $0["path"] as? String } == pieces, "\(missing)", sourceLocation: sourceLocation)
        #expect(missing.allSatisfy { reasons.contains($0["reason"] as? String ?? "") }, "\(missing)", sourceLocation: sourceLocation)
    }

    @Test("noise on the LTC input: no file's start waits for a code that never locks; each takes the wall clock's time, said, and the audio is whole, exit 0",
          arguments: ServerKind.allCases)
    func noise(on kind: ServerKind) throws {
        let fault = try SideJobFault(kind)
        defer { fault.end() }
        let peer = try Self.ltcPeer(fault, ["--noise"])
        defer { peer.signal(SIGTERM); _ = peer.finish(timeout: 10) }
        let run = try fault.start(Self.arguments(fault, seconds: Self.seconds))
        // The run's length, the LTC reader's end (at most 5 s) and room for a loaded machine.
        let out = fault.finish(run, within: Self.seconds + 5 + 30)
        #expect(out.status == 0, "\(out.stderr)")
        try fault.expectWholeAudio(fault.dir + "/take.wav", seconds: Self.seconds, out)
        #expect(out.stderr.contains("timecode: no code was locked at the first frame of "), "\(out.stderr)")
        #expect(out.stderr.contains("timecode: no file was stamped from LTC"), "\(out.stderr)")
        // A reader the loaded machine left behind at a file's start is said as such.
        try Self.expectWallClock(fault, reasons: ["no_code", "reader_behind"])
        #expect(try SideJobFault.events(fault.dir + "/events.jsonl", "timecode_locked").isEmpty)
    }

    @Test("an LTC reader that stalls until its ring is full holds up neither the writer nor the end: the files after it take the wall clock's time, said, and the audio is whole, exit 0",
          arguments: ServerKind.allCases)
    func fullRing(on kind: ServerKind) throws {
        let fault = try SideJobFault(kind)
        defer { fault.end() }
        let peer = try Self.ltcPeer(fault, [])
        defer { peer.signal(SIGTERM); _ = peer.finish(timeout: 10) }
        // The reader stops for 30 s at its first samples: its 10-s ring (ClientRun.ltcRingSeconds)
        // is full 2 s before the 12-s run ends, and the end waits for it 5 s, no more.
        let seconds = 12.0
        let run = try fault.start(Self.arguments(fault, seconds: seconds), environment: ["JACKWAVE_TEST_LTC_STALL_US": "30000000"])
        let out = fault.finish(run, within: seconds + 5 + 30)
        #expect(out.status == 0, "\(out.stderr)")
        try fault.expectWholeAudio(fault.dir + "/take.wav", seconds: seconds, out)
        #expect(out.stderr.contains("timecode: the LTC reader had not read as far as the first frame of "), "\(out.stderr)")
        #expect(out.stderr.contains("the LTC reader did not end within 5 s"), "\(out.stderr)")
        let pieces = try fault.pieces(fault.dir + "/take.wav")
        #expect(pieces.count == Int(seconds), "\(pieces)")
        let missing = try SideJobFault.events(fault.dir + "/events.jsonl", "timecode_missing")
        #expect(missing.compactMap { $0["path"] as? String } == pieces, "\(missing)")
        // The first piece begins at frame 0, before any sample: nothing unread before it.
        #expect(missing.dropFirst().allSatisfy { $0["reason"] as? String == "reader_behind" }, "\(missing)")
        for piece in pieces {
            #expect(try IXMLFields(piece)["SPEED/NOTE"] == "free run: the timestamp is the wall clock, not timecode")
        }
    }
}
