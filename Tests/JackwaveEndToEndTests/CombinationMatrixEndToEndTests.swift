import Foundation
import JackwaveHost
import JackwaveSoundFiles
import JackwaveTestSupport
import Testing

/// Every option works with every other: a pairwise covering set of runs (`MatrixRun.all`),
/// in which every pair of features (tone, `--rate`, `--split`, `--trigger`, `--transport`,
/// `--pre-roll`, `--reconnect` with a server restart, `--osc` with a marker and a split,
/// `--loudness`, `--levels`, `--plot`, `--events`, `--on-close`, `--split-every` under the
/// test clock, `--stream` to a private Icecast, `--silence`, an MP3 or Opus archive, a source
/// that declares a capture latency, `--midi`, jackd or PipeWire) meets in at least one run. Each run
/// checks what it wrote: every file continuous (sample-exact against the test pattern, or
/// the tone without a break), pieces joining where they should, the summary, the events, the
/// level rows, the pictures and the hook's list agreeing with the files, each WAV file's bext
/// saying the latency it subtracted, no dropout counted on an unbroken stream, and a `.mid`
/// beside every file, as long as it.
@Suite("Every option with every other: the pairwise matrix", .serialized)
struct CombinationMatrixEndToEndTests {
    @Test("the matrix's runs cover every pair of features the constraints allow")
    func coversEveryPair() {
        let generator = Pairwise(factors: MatrixRun.factors, allows: MatrixRun.allows)
        let runs = MatrixRun.all.map(\.levels)
        let missing = generator.allowedPairs().filter { pair in !runs.contains { pair.covered(by: $0.map(Optional.some)) } }
        #expect(missing.isEmpty, "\(missing)")
        #expect(runs.allSatisfy { MatrixRun.allows($0.map(Optional.some)) })
        #expect(runs.count <= 16, "\(runs.count) runs")
    }

    @Test("a run of features together records what it should, and says, streams and hooks the same", arguments: MatrixRun.all)
    func run(_ m: MatrixRun) throws {
        let dir = temporaryDirectory()
        let port = try FreePort.udp()
        let server = try m.server.start()
        var restarted: Run.Running?
        var source: Run.Running? = try startSource(m, on: server)
        let icecast = m.stream ? try IcecastServer() : nil
        defer {
            source?.signal(SIGTERM); _ = source?.finish()
            restarted?.signal(SIGTERM); _ = restarted?.finish(timeout: 10)
        }
        let run = try Run.start(Run.jackwave, m.arguments(dir: dir, port: port, icecastPort: icecast?.port), server: server.name,
                                environment: m.environment(streamPassword: icecast?.sourcePassword))
        defer { run.signal(SIGKILL) }
        if m.arming == .transport {
            #expect(run.waitForStderr("armed:"), "\(run.stderrSoFar)")
            source?.signal(SIGUSR1)
        }
        #expect(waitForAudio(in: dir, m, run: run, frames: m.fileRate * 6 / 10), "\(run.stderrSoFar)")
        if m.osc {
            try send(port, "/jackwave/marker", "s", "one")
            #expect(run.waitForStderr("marker 1 (one) at"), "\(run.stderrSoFar)")
            let piecesBefore = files(in: dir, m).count
            try send(port, "/jackwave/split")
            #expect(run.waitForStderr("OSC: split at"), "\(run.stderrSoFar)")
            // The piece the split began holds a tenth of a second before anything cuts it (a
            // restart right after would leave a piece of a few hundred frames, most of it the
            // resampler's tail, which no join check can read).
            #expect(waitUntil(timeout: 60) {
                let list = files(in: dir, m)
                return (list.count > piecesBefore && Recording.framesSoFar(list.last!) > m.fileRate / 10) || !run.isRunning
            }, "\(run.stderrSoFar)")
        }
        let countBefore = files(in: dir, m).count
        if m.reconnect {
            if m.server == .jackd { server.stop() } else { server.crash() }
            source?.signal(SIGTERM); _ = source?.finish()
            #expect(run.waitForStderr("waiting for a JACK server to come back"), "\(run.stderrSoFar)")
            restarted = try server.startAgain()
            source = try startSource(m, on: server)
            #expect(run.waitForStderr("the server is back"), "\(run.stderrSoFar)")
            if m.arming == .transport { source?.signal(SIGUSR1) }
        }
        // Half a second more, in a file after the restart's gap when there was one.
        let recorded = files(in: dir, m).map(Recording.framesSoFar).reduce(0, +)
        #expect(waitForAudio(in: dir, m, run: run, frames: recorded + m.fileRate / 2, files: m.reconnect ? countBefore + 1 : 1),
                "\(run.stderrSoFar)")
        run.signal(SIGINT)
        let out = run.finish(timeout: 60)
        #expect(out.status == 0, "\(out.stderr)")
        #expect(!out.stderr.contains("error:"), "\(out.stderr)")
        try check(m, dir: dir, out: out, source: source)
    }

    // MARK: The run

    /// The test pattern's source (with `--transport`, also the transport's driver), or for
    /// a tone with `--transport` the driver alone; none for a bare tone.
    func startSource(_ m: MatrixRun, on server: any TestServer) throws -> Run.Running? {
        let options = (m.arming == .transport ? ["--transport"] : []) + (m.declaredLatency.map { ["--latency", "\($0)"] } ?? [])
        switch (m.tone, options.isEmpty) {
        case (false, true): return try server.startTestSource(channels: 2)
        case (false, false):
            let source = try server.startArmedSource(options, channels: 2)
            if let frames = m.declaredLatency, !source.waitForStdout("latency \(frames)") {
                throw TestFailure("the source did not declare its latency: \(source.stdoutSoFar)")
            }
            return source
        case (true, false): return try server.startArmedSource(options, channels: 1, name: "roller")
        case (true, true): return nil
        }
    }

    /// `oscsend localhost PORT PATH [TYPES VALUES…]`.
    func send(_ port: Int, _ path: String, _ typesAndValues: String...) throws {
        let out = try Run.tool("/usr/bin/oscsend", ["localhost", "\(port)", path] + typesAndValues, server: nil, timeout: 10)
        guard out.status == 0 else { throw TestFailure("oscsend \(path) failed: \(out.stderr)") }
    }

    /// The run's sound files, in the order they were written (their names sort so, by number
    /// or by time).
    func files(in dir: String, _ m: MatrixRun) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        return names.filter { $0.hasPrefix("m") && $0.hasSuffix("." + m.format.ext) }.sorted().map { dir + "/" + $0 }
    }

    /// Waits until there are at least `files` files and they hold more than `frames` in all.
    func waitForAudio(in dir: String, _ m: MatrixRun, run: Run.Running, frames: Int, files count: Int = 1) -> Bool {
        waitUntil(timeout: 60) {
            let list = files(in: dir, m)
            guard list.count >= count else { return !run.isRunning }
            return list.map(Recording.framesSoFar).reduce(0, +) > frames || !run.isRunning
        } && run.isRunning
    }

    // MARK: What it wrote

    func check(_ m: MatrixRun, dir: String, out: Run.Output, source: Run.Running?) throws {
        let paths = files(in: dir, m)
        let recordings = try paths.map { try Recording($0) }
        try #require(!recordings.isEmpty, "\(out.stderr)")
        let frames = recordings.map(\.frames)
        let names = paths.map { String($0.dropFirst(dir.count + 1)) }

        // The names say the scheme: numbered when cut, by take (and piece) when armed, by the
        // time on the wall clock.
        for name in names {
            let stem = String(name.dropLast(m.format.ext.count + 1))
            let pattern: Regex<Substring> = switch (m.armed, m.numbered, m.splitEvery) {
            case (_, _, true): #/m-\d{8}-\d{6}(?:_\d+)?/#
            case (false, false, _): #/m/#
            case (false, true, _), (true, false, _): #/m-\d{3}/#
            case (true, true, _): #/m-\d{3}-\d{3}/#
            }
            #expect(stem.wholeMatch(of: pattern) != nil, "\(names)")
        }
        if m.splitEvery {
            // Named by the test clock; unarmed, the first piece ends at 14:00:00, 0.4 s in.
            #expect(names.first?.hasPrefix(m.armed ? "m-20250314-1" : "m-20250314-135959") == true, "\(names)")
            if !m.armed { #expect(frames.first == m.fileRate * 2 / 5, "\(frames) \(names)") }
        }
        // The summary: the files, their frames.
        let total = frames.reduce(0, +)
        #expect(out.stderr.contains(" \(total) frames, "), "\(total) frames in \(names): \(out.stderr)")
        if paths.count > 1 { #expect(out.stderr.contains("(\(paths.count) files)"), "\(out.stderr)") }
        #expect(recordings.allSatisfy { $0.sampleRate == m.fileRate })

        try checkSignal(m, recordings, names: names, out: out, source: source)
        if m.events { try checkEvents(m, dir: dir, frames: frames, paths: paths, out: out) }
        if m.levelStream { try checkLevels(m, dir: dir, out: out) }
        if m.plot {
            let pictures = ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).filter { $0.hasSuffix(".png") }.sorted()
            #expect(pictures == names.map { $0.replacingOccurrences(of: "." + m.format.ext, with: ".png") }, "\(out.stderr)")
        }
        if m.onClose {
            let closed = (try? String(contentsOfFile: dir + "/closed.txt", encoding: .utf8)) ?? ""
            #expect(closed.split(separator: "\n").map(String.init) == paths, "\(out.stderr)")
        }
        if m.osc && !m.lossy {
            let cues = try paths.flatMap { try SoundFile(readingFrom: $0).cues }
            #expect(cues.count == 1, "one marker, one cue point: \(cues) \(out.stderr)")
        }
        if m.loudness {
            #expect(out.stderr.contains("loudness: I "), "\(out.stderr)")
            if m.numbered || m.armed {
                for name in names { #expect(out.stderr.contains("\(name): I "), "\(name): \(out.stderr)") }
            }
        }
        if m.reconnect { #expect(out.stderr.contains("1 server gap ("), "\(out.stderr)") }
        if m.stream {
            // One Icecast connection for the whole run, a restart of the JACK server included.
            #expect(out.stderr.contains("stream: connected to icecast://"), "\(out.stderr)")
            #expect(out.stderr.contains(" streamed in 1 connection, ") && out.stderr.contains(", 0 frames dropped"), "\(out.stderr)")
            if m.reconnect { #expect(out.stderr.contains("s of silence sent while the JACK server was away"), "\(out.stderr)") }
        }
        // The feed is never silent for 0.3 s (a restart's gap is no silence): no false alarm.
        if m.silence { #expect(!out.stderr.contains("dead air"), "\(out.stderr)") }
        if m.midi { try checkMidi(m, paths: paths, frames: frames) }
        try checkLatency(m, paths: paths, out: out)
        try checkDropouts(m, dir: dir, out: out, source: source, silentCycles: silentCycles(m, recordings))
    }

    /// On PipeWire, whether a file holds whole cycles of silence in place of the source's
    /// pattern, and nothing else amiss (`TestPattern.silentCycles`): PipeWire ran jackwave
    /// without the source's output of a cycle, which neither client can tell. The dropout
    /// detection then rightly counts them, and the signal's joins are the server's.
    func silentCycles(_ m: MatrixRun, _ recordings: [Recording]) -> Bool {
        guard m.server == .pipewire, !m.tone, !m.lossy else { return false }
        return recordings.contains { rec in
            rec.frames > 0 && (TestPattern.silentCycles(in: rec, from: 0, upTo: rec.frames, quantum: 256) ?? 0) > 0
        }
    }

    /// Each WAV file's bext says the latency its time subtracts (the source's declared one,
    /// or none known), and so does the summary (which says what the bext does only when the
    /// files have one: a lossy archive has none).
    func checkLatency(_ m: MatrixRun, paths: [String], out: Run.Output) throws {
        for path in paths where !m.lossy {
            let info = try #require(try SoundFile(readingFrom: path).broadcastInfo)
            let note = m.declaredLatency.map { "(capture latency \($0) frames at 48000 Hz)" }
                ?? "; capture latency unknown: none declared upstream, not subtracted"
            #expect(info.description.hasSuffix(note), "\(path): \(info.description)")
        }
        let inputs = m.tone ? "in_1" : "in_1, in_2"
        // Said when declared; a latency nobody declares is only in the files' description.
        if let declared = m.declaredLatency {
            let line = "capture latency \(declared) frames (10.000 ms) on \(inputs)" + (m.lossy ? "\n" : ": subtracted")
            #expect(out.stderr.contains(line), "\(out.stderr)")
        } else {
            #expect(!out.stderr.contains("capture latency"), "\(out.stderr)")
        }
    }

    /// Beside every file, its `.mid`, which midicsv reads, its tracks as long as the audio
    /// (a lossy file's decoded length is its codec's: there, only that it reads).
    func checkMidi(_ m: MatrixRun, paths: [String], frames: [Int]) throws {
        for (path, count) in zip(paths, frames) {
            let midi = try MidiCSV(String(path.dropLast(m.format.ext.count)) + "mid")
            #expect(midi.division == m.fileRate / 100 && midi.tempos == [10_000], "\(path): \(midi.division) \(midi.tempos)")
            if !m.lossy { #expect(midi.ends[2] == count, "\(path): MIDI ends at \(midi.ends[2] ?? -1), the audio at \(count)") }
        }
    }

    /// The dropouts counted: none on a stream the server did not break, and the same number
    /// in the summary, the events and the level stream's rows.
    func checkDropouts(_ m: MatrixRun, dir: String, out: Run.Output, source: Run.Running?, silentCycles: Bool) throws {
        let total = try #require(out.stderr.firstMatch(of: #/, (\d+) dropouts?/#).flatMap { Int($0.1) }, "\(out.stderr)")
        if !m.server.brokeStream(stderr: out.stderr, source: source) && !silentCycles { #expect(total == 0, "\(out.stderr)") }
        if m.events {
            let events = try EventStream.read(dir + "/m.jsonl").filter { $0["event"] as? String == "dropout" }
            #expect(events.count == total, "\(events)")
        }
        if m.levelStream {
            let rows = try String(contentsOfFile: dir + "/m.csv", encoding: .utf8).split(separator: "\n")
                .map { $0.split(separator: ",", omittingEmptySubsequences: false) }
            let column = try #require(rows.first?.firstIndex(of: "dropouts"), "\(rows.first ?? [])")
            let counted = rows.dropFirst().compactMap { $0.element(at: column).flatMap { Int($0) } }
            #expect(counted.reduce(0, +) == total)
        }
    }

    /// Each file holds an unbroken signal, and where the pieces of one take (or of an
    /// unarmed run) follow each other in one connection they join without a frame missing or
    /// repeated. A break between files comes only where a take ended or the server restarted.
    func checkSignal(_ m: MatrixRun, _ recordings: [Recording], names: [String], out: Run.Output, source: Run.Running?) throws {
        if m.server.brokeStream(stderr: out.stderr, source: source) { return }
        if silentCycles(m, recordings) {
            print("\(m): PipeWire gave jackwave whole cycles of silence in place of the source's; the rest is the pattern")
            return
        }
        // A lossy codec keeps the tone, not its samples: each file's pitch is checked, not the joins.
        if m.lossy {
            for (i, rec) in recordings.enumerated() where rec.frames > 4800 {
                let f = Signal.frequency(Array(rec.samples.dropFirst(2400).dropLast(2400)), rate: Double(rec.sampleRate)) ?? 0
                #expect(abs(f - 997) < 0.5, "\(names[i]): \(f) Hz")
            }
            return
        }
        var breaks: [Int] = []
        for (i, rec) in recordings.enumerated() {
            if m.tone {
                // Where the tone plays at its level: not its fades, nor the resampler's tail after one.
                let loud = rec.samples.indices.filter { abs(rec.samples[$0]) > 0.05 }
                let middle = loud.count > 2000 ? Array(rec.samples[loud.first!...loud.last!]) : []
                let f = middle.isEmpty ? 0 : Signal.frequency(middle, rate: Double(rec.sampleRate)) ?? 0
                #expect(middle.isEmpty || abs(f - 997) < 0.05, "\(names[i]): \(f) Hz")
            } else {
                let mismatch = TestPattern.firstMismatch(in: rec, from: 0)
                #expect(mismatch == nil, "\(names[i]): \(String(describing: mismatch))")
            }
            guard i > 0, recordings[i - 1].frames > 0, rec.frames > 0 else { continue }
            if !joins(recordings[i - 1], rec, tone: m.tone) { breaks.append(i) }
        }
        // Takes: the first number of a name (on the wall clock, names carry no take: as many
        // breaks as takes begin after the first may be theirs).
        if m.splitEvery {
            let takeCount = out.stderr.split(separator: "\n").filter { $0.hasPrefix("jackwave: take ") }.count
            let allowed = (m.reconnect ? 1 : 0) + (m.armed ? max(0, takeCount - 1) : 0)
            #expect(breaks.count <= allowed, "files that should join do not: \(breaks.map { names[$0] }) of \(names)")
            return
        }
        let takes = names.map { name in Int(name.dropFirst(2).prefix(3)) ?? 0 }
        let takeBreaks = breaks.filter { m.armed && takes[$0] != takes[$0 - 1] }
        let others = breaks.count - takeBreaks.count
        #expect(others <= (m.reconnect ? 1 : 0), "files that should join do not: \(breaks.map { names[$0] }) of \(names)")
    }

    /// Whether `b` goes on exactly where `a` ends: the next pattern frame, or the tone's next
    /// sample (a sine fitted across the join leaves nothing but float rounding).
    func joins(_ a: Recording, _ b: Recording, tone: Bool) -> Bool {
        if !tone {
            guard let first = b.sample(frame: 0, channel: 0), let last = a.sample(frame: a.frames - 1, channel: 0) else { return false }
            return TestPattern.phase(of: first) == (TestPattern.phase(of: last) + 1) % 16384
        }
        // At most half of `b`: a piece cut short by a restart right after a split ends with
        // the resampler's tail (`--rate`), which is no sine; one too short to fit is not judged.
        let n = min(1000, a.frames, b.frames / 2)
        guard n >= 64 else { return true }
        let joined = Array(a.samples[(a.samples.count - n)...]) + Array(b.samples[0..<n])
        let residual = Signal.sineResidual(joined, frequency: 997, rate: Double(a.sampleRate)).map(abs).max() ?? 1
        return residual < 1e-3
    }

    /// The events agree with the files, frame for frame, and tell what happened.
    func checkEvents(_ m: MatrixRun, dir: String, frames: [Int], paths: [String], out: Run.Output) throws {
        let lines = try EventStream.read(dir + "/m.jsonl")
        let kinds = lines.compactMap { $0["event"] as? String }
        let closed = lines.filter { $0["event"] as? String == "file_closed" }
        #expect(closed.compactMap { $0["path"] as? String } == paths, "\(kinds)")
        #expect(closed.compactMap { $0["frames"] as? Int } == frames)
        #expect(kinds.filter { $0 == "file_opened" }.count == paths.count)
        #expect(kinds.last == "stopped" && lines.last?["exit_code"] as? Int == 0, "\(kinds)")
        if m.armed { #expect(kinds.contains("trigger"), "\(kinds)") }
        if m.reconnect { #expect(kinds.contains("server_lost") && kinds.contains("server_back"), "\(kinds)") }
        // Each connection's start tells every input's latency.
        let latency = lines.filter { $0["event"] as? String == "latency" }
        #expect(latency.count == (m.tone ? 1 : 2) * (m.reconnect ? 2 : 1), "\(latency)")
        #expect(latency.allSatisfy { $0["max_frames"] as? Int == m.declaredLatency ?? 0 }, "\(latency)")
        if m.osc { #expect(kinds.filter { $0 == "marker" }.count == 1, "\(kinds)") }
        if m.loudness && (m.numbered || m.armed) {
            #expect(kinds.filter { $0 == "file_loudness" }.count == paths.count, "\(kinds)")
        }
        if m.silence { #expect(!kinds.contains("silence_started"), "\(kinds)") }
        if m.splitEvery { #expect(!kinds.contains("clock_step"), "\(kinds)") }
        if m.stream { #expect(kinds.filter { $0 == "stream_connected" }.count == 1 && !kinds.contains("stream_lost"), "\(kinds)") }
        // Files follow each other on the timeline.
        let opened = lines.filter { $0["event"] as? String == "file_opened" }.compactMap { $0["frame"] as? Int }
        let ends = closed.compactMap { $0["frame"] as? Int }
        #expect(zip(ends, opened.dropFirst()).allSatisfy { $0 <= $1 }, "closed at \(ends), opened at \(opened)")
    }

    /// The level stream: its columns as the options ask, rows in order, one gap row for a
    /// restart, takes labelled.
    func checkLevels(_ m: MatrixRun, dir: String, out: Run.Output) throws {
        let text = try String(contentsOfFile: dir + "/m.csv", encoding: .utf8)
        let rows = text.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let header = try #require(rows.first)
        #expect(header.contains("take") == m.armed, "\(header)")
        #expect(header.contains("gap_seconds") == m.reconnect, "\(header)")
        #expect(header.contains("lufs_i") == m.loudness, "\(header)")
        let data = rows.dropFirst()
        let framesColumn = data.compactMap { Int64($0[0]) }
        #expect(framesColumn.count == data.count && framesColumn.count > 10)
        #expect(zip(framesColumn, framesColumn.dropFirst()).allSatisfy { $0 <= $1 }, "rows out of order")
        if let gap = header.firstIndex(of: "gap_seconds") {
            let gaps = data.filter { ($0.element(at: gap).flatMap { Double($0) } ?? 0) > 0 }
            #expect(gaps.count == 1, "\(gaps)")
        }
        if let take = header.firstIndex(of: "take") {
            #expect(data.contains { ($0.element(at: take).flatMap { Int($0) } ?? 0) > 0 }, "no row of a take")
        }
    }
}
