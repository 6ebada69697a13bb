import Foundation
import JackwaveHost
import JackwaveTestSupport
import Testing

/// Recording across machines: two network namespaces (`MachinePair`), a dummy jackd on the
/// local one (the recorder, "desk"), and each of JACK's network links carrying the remote
/// machine's audio to it. jackwave records the link's ports, found by glob, as a user would.
///
/// jackd only: the remote machine's server is part of each link (netone, net) or a jackd of
/// its own, and what is checked is what the link delivers; jackwave's side of it is the same
/// client on either server (every other suite runs it on PipeWire too).
@Suite("Recording through network links", .serialized)
struct NetworkLinkEndToEndTests {
    let dir = temporaryDirectory()

    /// Prints the capture latency the link's local ports declare (`jack_lsp -l`), for the docs.
    static func printDeclaredLatency(_ pair: MachinePair, _ link: some NetworkLink) {
        let port = link.localSourcePattern.replacingOccurrences(of: "*", with: "1")
        let out = try? pair.local.tool("/usr/bin/jack_lsp", ["-l", port], server: link.localServer)
        print("declared by \(port): \(out?.stdout.split(separator: "\n").filter { $0.contains("latency") } ?? [])")
    }

    /// The dropouts the detector's documented rule finds, counted straight from the recording
    /// without the detector: on each input, every run of exact zeros 32 frames to half a
    /// second long with a sample at -54 dBFS within 32 frames on both sides. The pattern is a
    /// slow ramp, so now and then a packet is lost where one input passes through zero: its
    /// edge is quiet, and on that input it is no dropout (seen about once in ten runs).
    static func dropoutsByRule(_ rec: Recording) -> [Int] {
        func loud(_ frames: Range<Int>, _ c: Int) -> Bool {
            frames.clamped(to: 0..<rec.frames).contains { abs(rec[$0, c]) >= 1.0 / 512 }
        }
        return (0..<rec.channels).map { c in
            var count = 0, f = 0
            while f < rec.frames {
                guard rec[f, c] == 0 else { f += 1; continue }
                var end = f
                while end < rec.frames && rec[end, c] == 0 { end += 1 }
                if end < rec.frames, (32...24000).contains(end - f), loud((f - 32)..<f, c), loud(end..<(end + 32), c) {
                    count += 1
                }
                f = end
            }
            return count
        }
    }

    /// A pair of machines with a dummy jackd "desk" on the local one.
    static func machines() throws -> (MachinePair, MachineJackServer) {
        let pair = try MachinePair()
        do {
            return (pair, try MachineJackServer.dummy(on: pair.local, name: "desk"))
        } catch {
            pair.stop()
            throw error
        }
    }

    /// Records, on the local machine, the local test source's `out_1` beside what came back
    /// through the link (its `localSourcePattern`), and checks that every link channel is the
    /// pattern sample for sample at one constant delay from the reference. Returns the delay.
    func roundTrip(_ pair: MachinePair, _ link: some NetworkLink, toRemote: [String], seconds: Int = 2) throws -> Int {
        let source = try MachineJackServer.startSource(on: pair.local, server: link.localServer)
        _ = source
        // Out through the link, looped back on the remote (its inputs to its outputs), and home.
        for (c, port) in toRemote.enumerated() { try pair.local.connect("src:out_\(c + 1)", port, server: link.localServer) }
        for (c, sink) in link.remoteSinks.enumerated() {
            try pair.remote.connect("system:capture_\(c + 1)", sink, server: link.remoteServer)
        }
        let path = dir + "/round-trip.wav"
        let out = try pair.local.jackwave(["--record", path, "-p", "src:out_1", "-p", link.localSourcePattern,
                                           "-d", "\(seconds)", "--no-meter"], server: link.localServer)
        #expect(out.status == 0, "\(out.stderr)")
        let rec = try Recording(path)
        #expect(rec.channels == 1 + toRemote.count)
        Self.printDeclaredLatency(pair, link)
        // The reference is exact from frame 0; the link's channels from their first sound on.
        let reference = (0..<rec.frames).map { rec[$0, 0] }
        let k0 = PatternStretches.patternFrame(of: try #require(reference.first, "an empty recording"), channel: 0)
        #expect((0..<rec.frames).allSatisfy { reference[$0] == TestPattern.value(frame: k0 + $0, channel: 0) })
        let back = Recording(channels: toRemote.count, samples: (0..<rec.frames).flatMap { f in (1..<rec.channels).map { rec[f, $0] } })
        let stretches = PatternStretches(back, patternChannels: Array(0..<toRemote.count))
        #expect(stretches.leadInIsZeros, "before the link delivers, exact zeros")
        guard let first = stretches.stretches.first, let last = stretches.stretches.last else {
            Issue.record("nothing came back")
            return -1
        }
        #expect(first.start < rec.frames / 2)
        #expect(last.start + last.frames == rec.frames, "exact to the end")
        // Delay: the pattern frame the reference had at the same recording frame. On a shared
        // clock it is one delay: idle, there is one stretch; with both cores busy the link now
        // and then hands over an old buffer for a late packet (a short stretch of the pattern
        // at another delay), and the pattern goes on after it at the same delay as before.
        // Seen once with other suites running: 16 stretches, the first 71 936 of 96 000 frames.
        var framesAtDelay: [Int: Int] = [:]
        for s in stretches.stretches { framesAtDelay[((k0 + s.start - s.patternFrame) % 16384 + 16384) % 16384, default: 0] += s.frames }
        let (delay, frames) = try #require(framesAtDelay.max { $0.value < $1.value }, "no stretch: \(stretches.glitches)")
        print("round trip: \(stretches.stretches.count) stretches, \(frames) of \(rec.frames - stretches.leadIn) frames at \(delay) frames' delay, glitches \(stretches.glitches.map { "\($0.start)+\($0.frames)\($0.isZeros ? "z" : "")\($0.patternJump)" })")
        #expect(frames * 2 >= rec.frames - stretches.leadIn, "\(framesAtDelay) \(stretches.glitches)")
        return delay
    }

    @Test("netjack1: the pattern goes out and comes back sample-exact, on the local clock, after a whole number of periods (stretches at one delay between a loaded machine's late packets)")
    func netjack1RoundTrip() throws {
        let (pair, desk) = try Self.machines()
        defer { pair.stop() }
        let link = try Netjack1Link(pair: pair, localServer: desk.name)
        let delay = try roundTrip(pair, link, toRemote: ["netjack1:playback_1", "netjack1:playback_2"])
        print("netjack1 round trip: \(delay) frames")
        #expect(delay > 0 && delay % 256 == 0, "round trip \(delay) frames")
    }

    @Test("netjack2 (netmanager and jackd -d net) works on jack2 1.9.21: the pattern comes back sample-exact after whole periods (stretches at one delay between a loaded machine's late packets)")
    func netjack2RoundTrip() throws {
        let (pair, desk) = try Self.machines()
        defer { pair.stop() }
        let link = try Netjack2Link(pair: pair, localServer: desk.name)
        let delay = try roundTrip(pair, link, toRemote: ["stagebox:to_slave_1", "stagebox:to_slave_2"])
        print("netjack2 round trip: \(delay) frames")
        #expect(delay > 0 && delay % 256 == 0, "round trip \(delay) frames")
    }

    @Test("netjack1: every period of jackwave's --tone that reaches the remote is the tone exactly, at its frequency and level")
    func netjack1Tone() throws {
        let (pair, desk) = try Self.machines()
        defer { pair.stop() }
        let link = try Netjack1Link(pair: pair, localServer: desk.name)
        let tone = try pair.local.start(Run.jackwave, ["--tone", "997.5", "--volume", "0.5", "--to", "netjack1:playback_1",
                                                       "--no-meter"], server: desk.name)
        defer { TestMachine.end(tone) }
        #expect(tone.waitForStderr("connected jackwave:out_1 -> netjack1:playback_1"), "\(tone.stderrSoFar)")
        let path = dir + "/remote-tone.wav"
        let out = try pair.remote.jackwave(["--record", path, "-p", "system:capture_1", "-d", "2", "--no-meter"],
                                           server: link.remoteServer)
        #expect(out.status == 0, "\(out.stderr)")
        // Period by period over the last 1.6 s (the fade-in long over; frame 0 of a recording
        // is a cycle's start, so each 256 frames are one period of the remote): netjack1
        // carries whole periods, and on a loaded machine it now and then loses one (zeros)
        // or plays an old one again (the tone at another phase). Those are the link's; what
        // is jackwave's is that every period that arrived is its tone exactly, at 997.5 Hz
        // (a residual under -100 dB pins it within 0.001 Hz) and half scale.
        let samples = try Recording(path).samples
        let start = max(0, samples.count - 8 * 9600) / 256 * 256
        let periods = stride(from: start, to: samples.count - 255, by: 256).map {
            KnownFrequencyFit(samples[$0..<($0 + 256)], rate: 48000, frequency: 997.5)
        }
        let arrived = periods.compactMap { $0 }
        print("netjack1 tone: \(arrived.count) of \(periods.count) periods arrived (the rest zeros); worst residual \(arrived.map(\.residualDB).max() ?? 0) dB")
        #expect(periods.count >= 250, "1.6 s recorded: \(samples.count) frames")
        #expect(!arrived.isEmpty, "the tone reached the remote")
        for (i, fit) in periods.enumerated() {
            guard let fit else { continue }
            #expect(fit.residualDB < -100 && abs(fit.amplitude - 0.5) < 1e-4,
                    "period \(i): residual \(fit.residualDB) dB, amplitude \(fit.amplitude)")
        }
    }

    @Test("JackTrip (hub, 16 bits): the remote's pattern arrives in sample-exact stretches; the glitches between them are counted")
    func jackTripStretches() throws {
        let (pair, desk) = try Self.machines()
        defer { pair.stop() }
        let link = try JackTripLink(pair: pair, localServer: desk.name)
        let source = try link.remote.startTestSource(channels: 2)
        _ = source
        for (c, sink) in link.remoteSinks.enumerated() { try pair.remote.connect("src:out_\(c + 1)", sink, server: "stage") }
        let path = dir + "/jacktrip.wav"
        let out = try pair.local.jackwave(["--record", path, "-p", link.localSourcePattern, "-d", "4", "--no-meter"],
                                          server: desk.name)
        #expect(out.status == 0, "\(out.stderr)")
        let rec = try Recording(path)
        Self.printDeclaredLatency(pair, link)
        let s = PatternStretches(rec, patternChannels: [0, 1])
        // JackTrip's own account, since the hub started: packets lost, underruns, overflows.
        let linesNow = link.lostPacketsByLine.count
        #expect(waitUntil(timeout: 5) { link.lostPacketsByLine.count > linesNow })
        let lostOrLate = (link.lostPacketsByLine.last ?? 0) + (link.underrunsByLine.last ?? 0)
        let overflows = link.overflowsByLine.last ?? 0
        print("JackTrip: \(s.stretches.count) stretches, \(s.exactFrames) of \(rec.frames) frames exact, glitches \(s.glitches.map { "\($0.start)+\($0.frames)\($0.isZeros ? "z" : "")\($0.patternJump)" }), lead-in \(s.leadIn); hub: lost+underruns \(lostOrLate), overflows \(overflows)")
        #expect(!s.stretches.isEmpty)
        #expect(s.leadInIsZeros)
        // Everything else is a glitch, each either zeros (an underrun, -z) or a jump of the
        // pattern by whole packets (256 frames, the remote's period): none is made up in between.
        #expect(s.exactFrames + s.glitches.reduce(0) { $0 + $1.frames } + s.leadIn == rec.frames)
        let skips = s.glitches.filter { !$0.isZeros }
        #expect(skips.allSatisfy { $0.frames == 0 && $0.patternJump > 0 && $0.patternJump % 256 == 0 }, "\(s.glitches)")
        // The hub told of every packet of zeros. A skip it cannot always tell: its overflows
        // drop a packet, and so does a cycle the remote's server ran without its JackTrip
        // client (seen in CI: two skips, one overflow counted), which no hub count sees.
        let zeroGlitches = s.glitches.count - skips.count
        #expect(zeroGlitches <= lostOrLate, "\(zeroGlitches) glitches of zeros, JackTrip told of \(lostOrLate) lost or late packets")
    }

    @Test("JackTrip 1.7.0 at -b 32 sends the low half of a double: the pattern arrives as zeros, a tone as ±0, ±2^-63, ±2, ±2^65 only")
    func jackTrip32Bit() throws {
        let (pair, desk) = try Self.machines()
        defer { pair.stop() }
        let remote = try MachineJackServer.dummy(on: pair.remote, name: "stage")
        // The same hub and client as JackTripLink, at -b 32 on both sides (they agree: a
        // mismatch is refused by the client with "Peer Audio Bit Resolution is 16").
        let hub = try pair.local.start("/usr/bin/jacktrip", ["-S", "-b", "32", "-p", "5", "-D", "-z"], server: desk.name)
        #expect(hub.waitForStdout("Waiting for client connections"))
        _ = try pair.remote.start("/usr/bin/jacktrip", ["-C", pair.local.address, "-b", "32", "-D", "-z", "-K", "stage",
                                                        "-J", "stagebox"], server: remote.name)
        #expect(pair.local.waitForPort("stage:receive_2", server: desk.name))
        #expect(pair.remote.waitForPort("stagebox:send_2", server: remote.name))
        // Channel 1: the test pattern. Channel 2: jackwave's tone, whose samples use all 24 bits.
        _ = try remote.startTestSource(channels: 1)
        try pair.remote.connect("src:out_1", "stagebox:send_1", server: remote.name)
        let tone = try pair.remote.start(Run.jackwave, ["--tone", "997.5", "--volume", "0.5", "--outputs", "1",
                                                        "--to", "stagebox:send_2", "--no-meter"], server: remote.name)
        #expect(tone.waitForStderr("connected jackwave:out_1 -> stagebox:send_2"), "\(tone.stderrSoFar)")
        let path = dir + "/jacktrip32.wav"
        let out = try pair.local.jackwave(["--record", path, "-p", "stage:receive_*", "-d", "2", "--no-meter"], server: desk.name)
        #expect(out.status == 0, "\(out.stderr)")
        let rec = try Recording(path)
        #expect(hub.stdoutSoFar.contains("Received Connection from Peer"), "packets did arrive")
        #expect((0..<rec.frames).allSatisfy { rec[$0, 0] == 0 },
                "if this fails, JackTrip's 32-bit mode was fixed: use -b 32 in JackTripLink")
        // What a float's three lowest mantissa bits become as the sign and the top two
        // exponent bits of a float (the rest zero): ±0, ±2^-63, ±2, ±2^65, and nothing else.
        let possible: Set<Float> = [0, 0x1p-63, 2, 0x1p65, -0x1p-63, -2, -0x1p65]
        let tail = (rec.frames / 2..<rec.frames).map { rec[$0, 1] }
        #expect(tail.allSatisfy { possible.contains($0) }, "\(Set(tail).prefix(10))")
        let loud = tail.filter { abs($0) >= 2 }.count
        print("JackTrip -b 32, tone: \(loud * 100 / tail.count) % of samples at ±2 or ±2^65, \(tail.filter { $0 != 0 }.count * 100 / tail.count) % non-zero")
        #expect(loud > tail.count / 10, "the tone arrives as loud noise")
    }

    /// The `dropout` events of a run, per input (`in_1`…), and their frames and lengths.
    static func dropoutEvents(_ path: String, inputs: Int) throws -> (counts: [Int], dropouts: [(input: Int, frame: Int, frames: Int)]) {
        let found = try EventStream.read(path).filter { $0["event"] as? String == "dropout" }.compactMap { e -> (Int, Int, Int)? in
            guard let name = e["input"] as? String, let c = Int(name.dropFirst("in_".count)), let frame = e["frame"] as? Int,
                  let frames = e["frames"] as? Int else { return nil }
            return (c - 1, frame, frames)
        }
        return ((0..<inputs).map { c in found.filter { $0.0 == c }.count }, found.map { (input: $0.0, frame: $0.1, frames: $0.2) })
    }

    @Test("JackTrip --simloss 0.01: jackwave counts the lost packets as dropouts, within what the hub's statistics say, in its events, summary and level stream")
    func jackTripSimulatedLoss() throws {
        let (pair, desk) = try Self.machines()
        defer { pair.stop() }
        let link = try JackTripLink(pair: pair, localServer: desk.name, hubOptions: ["--simloss", "0.01"])
        _ = try link.remote.startTestSource(channels: 2)
        for (c, sink) in link.remoteSinks.enumerated() { try pair.remote.connect("src:out_\(c + 1)", sink, server: "stage") }
        // The hub prints its statistics every second; note the count before and after.
        #expect(waitUntil(timeout: 10) { link.lostPacketsByLine.count >= 1 })
        let before = link.lostPacketsByLine, underrunsBefore = link.underrunsByLine
        let path = dir + "/simloss.wav", events = dir + "/simloss.jsonl", levels = dir + "/simloss.csv"
        let out = try pair.local.jackwave(["--record", path, "-p", link.localSourcePattern, "-d", "6", "--events", events,
                                           "--levels", levels, "--level-interval", "100", "--no-meter"], server: desk.name)
        #expect(out.status == 0, "\(out.stderr)")
        let linesDuring = link.lostPacketsByLine.count
        #expect(waitUntil(timeout: 5) { link.lostPacketsByLine.count > linesDuring })
        let after = link.lostPacketsByLine, underrunsAfter = link.underrunsByLine
        // Lost while recording: at least what the last line before the end less the first
        // after the start says. At most the first line after the end less the last before the
        // start, with the underruns in that time added (a packet late on a loaded machine is
        // zeros too, and JackTrip counts it there).
        let lastBefore = try #require(before.last, "the hub printed no statistics before the run")
        let underrunsLastBefore = try #require(underrunsBefore.last, "no underrun count before the run")
        let lastDuring = try #require(after.element(at: linesDuring - 1), "no statistics during the run: \(after)")
        let firstAtStart = try #require(after.element(at: min(before.count, linesDuring - 1)))
        let firstAfter = try #require(after.element(at: linesDuring), "no statistics after the run: \(after)")
        let underrunsFirstAfter = try #require(underrunsAfter.element(at: linesDuring), "\(underrunsAfter)")
        let lower = max(0, lastDuring - firstAtStart)
        let upper = firstAfter - lastBefore + underrunsFirstAfter - underrunsLastBefore

        let rec = try Recording(path)
        let (counts, dropouts) = try Self.dropoutEvents(events, inputs: 2)
        let s = PatternStretches(rec, patternChannels: [0, 1])
        let zeroGlitches = s.glitches.filter(\.isZeros)
        // The independent count, straight from the documented rule (`dropoutsByRule`).
        let expected = Self.dropoutsByRule(rec)
        // Packets' worth of audio that the glitches took: zeros, and skips ahead (a packet
        // the jitter buffer dropped instead of filling in: no dropout can be seen there).
        let missing = zeroGlitches.reduce(0) { $0 + ($1.frames + 255) / 256 }
            + s.glitches.filter { !$0.isZeros && $0.patternJump > 0 }.reduce(0) { $0 + $1.patternJump / 256 }
        print("simloss: hub lost \(lower)...\(firstAfter - lastBefore) (+ underruns: \(upper)) while recording; jackwave \(counts), expected \(expected); packets missing \(missing); glitches \(s.glitches.map { "\($0.start)+\($0.frames)\($0.isZeros ? "z" : "")\($0.patternJump)" })")
        #expect(counts == expected, "\(dropouts)")
        // No more dropouts than JackTrip says it lost or ran short of, and every packet it
        // says it lost is missing from the recording, as zeros or a skip.
        #expect(counts.allSatisfy { $0 <= upper }, "jackwave \(counts), hub at most \(upper)")
        #expect(missing >= lower, "\(missing) packets missing, hub lost at least \(lower)")
        #expect(firstAfter - lastBefore > 0, "1 % of ~1100 packets were lost")
        #expect((counts.first ?? 0) > 0, "\(counts)")
        // Each dropout is at a glitch, where the pattern did not arrive. (It may begin a frame
        // or so before the glitch: where the ramp on that input is exactly 0 just before.)
        #expect(dropouts.allSatisfy { d in s.glitches.contains { $0.start < d.frame + d.frames && d.frame < $0.start + $0.frames } },
                "\(dropouts)")
        // The summary says the same, per input and in all; the level stream's rows add up to it.
        #expect(out.stderr.contains(", \(counts.reduce(0, +)) dropout"), "\(out.stderr)")
        for (c, n) in counts.enumerated() where n > 0 {
            #expect(out.stderr.contains("in_\(c + 1): \(n) dropout"), "\(out.stderr)")
        }
        let rows = try String(contentsOfFile: levels, encoding: .utf8).split(separator: "\n").map { $0.split(separator: ",") }
        let column = try #require(rows.first?.firstIndex(of: "dropouts"), "\(rows.first ?? [])")
        let rowDropouts: [Int] = rows.dropFirst().compactMap { row in row.element(at: column).flatMap { Int($0) } }
        #expect(rowDropouts.reduce(0, +) == counts.reduce(0, +), "\(rowDropouts)")
    }

    @Test("through JackTrip, a source that stops is not a dropout: its silence goes on")
    func jackTripSourceStops() throws {
        let (pair, desk) = try Self.machines()
        defer { pair.stop() }
        let link = try JackTripLink(pair: pair, localServer: desk.name)
        let source = try link.remote.startTestSource(channels: 2)
        for (c, sink) in link.remoteSinks.enumerated() { try pair.remote.connect("src:out_\(c + 1)", sink, server: "stage") }
        let path = dir + "/stops.wav", events = dir + "/stops.jsonl"
        let run = try pair.local.start(Run.jackwave, ["--record", path, "-p", link.localSourcePattern, "-d", "3",
                                                      "--events", events, "--no-meter"], server: desk.name)
        #expect(run.waitForRecordedFrames(path, moreThan: 48000))
        TestMachine.end(source)
        let out = run.finish(timeout: 30)
        #expect(out.status == 0, "\(out.stderr)")
        let rec = try Recording(path)
        let s = PatternStretches(rec, patternChannels: [0, 1])
        let lastSound = (0..<rec.frames).last { f in rec[f, 0] != 0 || rec[f, 1] != 0 } ?? 0
        #expect(rec.frames - lastSound > 24000, "the source stopped more than half a second before the end")
        let (counts, dropouts) = try Self.dropoutEvents(events, inputs: 2)
        // Dropouts only where the link had glitches (none on an idle machine), none after the
        // source stopped: its silence is not one.
        #expect(counts == Self.dropoutsByRule(rec), "\(dropouts)")
        #expect(counts.allSatisfy { $0 <= s.glitches.count }, "\(dropouts) \(s.glitches)")
        #expect(dropouts.allSatisfy { $0.frame < lastSound }, "\(dropouts)")
        #expect(out.stderr.contains(", \(counts.reduce(0, +)) dropout"), "\(out.stderr)")
    }

    @Test("JackTrip client restarts: jackwave says its sources went, connects them again when they are back, and records on without a gap")
    func jackTripClientRestarts() throws {
        let (pair, desk) = try Self.machines()
        defer { pair.stop() }
        let link = try JackTripLink(pair: pair, localServer: desk.name)
        let path = dir + "/restart.wav"
        let events = dir + "/restart.jsonl"
        // No --duration: how long the hub takes to drop a client that left is its own affair
        // (seen: more than 5 s on a loaded machine); the run is stopped once the ports are back.
        let run = try pair.local.start(Run.jackwave, ["--record", path, "-p", link.localSourcePattern,
                                                      "--events", events, "--no-meter"], server: desk.name)
        defer { run.signal(SIGKILL) }
        #expect(run.waitForRecordedFrames(path, moreThan: 24000))
        try link.restartClient(whileGone: {
            #expect(run.waitForStderr("stage:receive_1 is gone (it fed in_1)"), "\(run.stderrSoFar)")
        })
        #expect(run.waitForStderr("stage:receive_2 is back: connected to in_2 again"), "\(run.stderrSoFar)")
        // Half a second more, recorded through the remade connections.
        #expect(run.waitForRecordedFrames(path, moreThan: Recording.framesSoFar(path) + 24000))
        run.signal(SIGINT)
        let out = run.finish(timeout: 30)
        #expect(out.status == 0, "\(out.stderr)")
        // Nothing lost: every frame the run received is in the file, the time away included.
        let frames = try Recording(path).frames
        #expect(out.stderr.contains("restart.wav: \(String(format: "%.3f", Double(frames) / 48000)) s, \(frames) frames, 2 channels")
                && out.stderr.contains(" 0 dropped frames"), "\(out.stderr)")
        // Connected at the start, and again when the ports came back.
        let connections = out.stderr.components(separatedBy: "jackwave: connected stage:receive_1 -> jackwave:in_1").count - 1
        #expect(connections == 2, "connected at the start and after the restart: \(out.stderr)")
        let course = try EventStream.read(events).compactMap { e -> String? in
            guard let kind = e["event"] as? String, kind.hasPrefix("source_") else { return nil }
            return "\(kind) \(e["port"] as? String ?? "?") \(e["input"] as? String ?? "?")"
        }
        // Each source told gone once, then back once.
        for c in 1...2 {
            let told = course.filter { $0.hasSuffix(" stage:receive_\(c) in_\(c)") }
            #expect(told == ["source_gone stage:receive_\(c) in_\(c)", "source_back stage:receive_\(c) in_\(c)"], "\(course)")
        }
        #expect(course.count == 4, "\(course)")
    }

    @Test("zita-njbridge: jackwave records exactly what the link delivers, beside jack_capture; the link declares no latency")
    func zitaTone() throws {
        let (pair, desk) = try Self.machines()
        defer { pair.stop() }
        let link = try ZitaLink(pair: pair, localServer: desk.name, channels: 1)
        let tone = try pair.remote.start(Run.jackwave, ["--tone", "997.5", "--volume", "0.5", "--outputs", "1",
                                                        "--to", "zj2n:in_1", "--no-meter"], server: link.remoteServer)
        defer { TestMachine.end(tone) }
        #expect(tone.waitForStderr("connected jackwave:out_1 -> zj2n:in_1"), "\(tone.stderrSoFar)")
        // A Debian peer records the same port from before jackwave starts until after it
        // ends. zita-n2j resamples the remote clock to the local one with a control loop that
        // hunts for seconds, and wider on a loaded machine (docs/recording-across-machines.md
        // gives its figures on a quiet one): what the link delivers is the link's. What is
        // jackwave's is that its file holds exactly that, sample for sample.
        let peerPath = dir + "/zita-peer.wav"
        let peer = try pair.local.start("/usr/bin/jack_capture", ["-c", "1", "-p", "zn2j:out_1", "-ns", "-f", "wav", peerPath],
                                        server: desk.name)
        defer { TestMachine.end(peer) }
        #expect(peer.waitForStderr("Recording to", timeout: 30), "\(peer.stderrSoFar)")
        let path = dir + "/zita.wav"
        let out = try pair.local.jackwave(["--record", path, "-p", link.localSourcePattern, "-c", "1", "-d", "6", "--no-meter"],
                                          server: desk.name)
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stderr.contains(" 0 dropped frames"), "\(out.stderr)")
        // jack_capture ends after the frames of one more short recording have passed through
        // the server: every frame of jackwave's is then in its file too.
        let tail = try pair.local.jackwave(["--record", dir + "/zita-tail.wav", "--manual", "-c", "1", "-d", "0.2", "--no-meter"],
                                           server: desk.name)
        #expect(tail.status == 0, "\(tail.stderr)")
        peer.signal(SIGINT)
        let said = peer.finish(timeout: 30)
        let rec = try Recording(path)
        let captured = try Recording(peerPath)
        #expect(rec.frames == 6 * 48000)
        let firstSound = try #require((0..<rec.frames).first { rec.samples[$0] != 0 }, "the tone arrived within 6 s")
        // Where jackwave's first 256 sounding frames lie in the peer's file: the link's
        // resampled, dithered tone does not repeat to the bit, so one place matches.
        let probe = Array(rec.samples[firstSound..<min(rec.frames, firstSound + 256)])
        let at = try #require(Self.firstMatch(of: probe, in: captured.samples), "jack_capture heard what jackwave did: \(said.stderr.suffix(300))")
        let offset = at - firstSound
        try #require(offset >= 0 && offset + rec.frames <= captured.frames,
                     "jack_capture's file (\(captured.frames) frames) holds all of jackwave's (\(rec.frames), from \(offset))")
        let differing = (0..<rec.frames).filter { rec.samples[$0] != captured.samples[offset + $0] }
        #expect(differing.isEmpty, "\(differing.count) frames differ, the first at \(differing.first ?? -1)")
        // zita-n2j declares a capture latency of 0 on its ports: jackwave cannot know the link's,
        // and says nothing of it (only the files' description notes it unknown).
        let ports = try pair.local.tool("/usr/bin/jack_lsp", ["-l", "zn2j:out_1"], server: desk.name)
        #expect(ports.stdout.contains("port capture latency = [ 0 0 ]"), "\(ports.stdout)")
        #expect(!out.stderr.contains("capture latency"), "\(out.stderr)")
    }

    /// The first index where `probe` lies in `samples`, bit for bit; nil if nowhere.
    static func firstMatch(of probe: [Float], in samples: [Float]) -> Int? {
        guard let head = probe.first, probe.count <= samples.count else { return nil }
        var i = 0
        while i + probe.count <= samples.count {
            if samples[i] == head && samples[i..<(i + probe.count)].elementsEqual(probe) { return i }
            i += 1
        }
        return nil
    }
}

extension MachineJackServer {
    /// `jackwave-testsource 2 src` on `server` of `machine`.
    static func startSource(on machine: TestMachine, server: String) throws -> Run.Running {
        let source = try machine.start(Tools.testSource, ["2", "src"], server: server)
        guard waitUntil(timeout: 30, { source.stdoutSoFar.contains("ready") || !source.isRunning }), source.isRunning else {
            throw TestFailure("test source did not start: \(source.stderrSoFar)")
        }
        return source
    }
}
