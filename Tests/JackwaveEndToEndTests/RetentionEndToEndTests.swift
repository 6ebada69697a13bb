import Foundation
import JackwaveTestSupport
import JackwaveDSP
import Testing

/// Retention (`--keep`, `--keep-space`): jackwave deletes the oldest of the files it wrote
/// (its manifest lists them), each deletion a line and a `file_deleted` event, and nothing
/// else in the folder: not a file named as it would name one, not a file it did not make. On
/// `jackd -d dummy` only: the files are the writer's and the finisher's; the server only
/// feeds frames (silence, with no port connected), which every other suite tests on both.
@Suite("Retention of jackwave's own files", .serialized)
struct RetentionEndToEndTests {
    /// The sound files in `dir`, sorted.
    func files(_ dir: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).filter { $0.hasSuffix(".wav") }.sorted()
    }

    func record(_ dir: String, _ extra: [String], server: any TestServer, seconds: String = "2.5") throws -> Run.Output {
        try Run.jackwave(["--record", dir + "/m.wav", "-c", "2", "--manual", "--bits", "float", "--split", "1", "-d", seconds,
                          "--events", dir + "/m-\(UUID().uuidString.prefix(8)).jsonl"] + extra, server: server.name)
    }

    func events(_ dir: String, kind: String) throws -> [[String: Any]] {
        let logs = ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).filter { $0.hasSuffix(".jsonl") }
        return try logs.flatMap { try EventStream.read(dir + "/" + $0) }.filter { $0["event"] as? String == kind }
    }

    @Test("--keep holds its files when the clock alone says all are past it, across restarts, until jackwave has run --keep; no foreign file goes")
    func keepAge() throws {
        let server = try ServerKind.jackd.start()
        let dir = temporaryDirectory()
        // Someone else's: one named as jackwave names its pieces, one not.
        _ = FileManager.default.createFile(atPath: dir + "/m-001.wav", contents: Data("foreign".utf8))
        _ = FileManager.default.createFile(atPath: dir + "/notes.txt", contents: Data("foreign".utf8))
        let first = try record(dir, ["--keep", "1d"], server: server)
        #expect(first.status == 0, "\(first.stderr)")
        let ours = files(dir).filter { $0 != "m-001.wav" }
        #expect(ours == ["m-002.wav", "m-003.wav", "m-004.wav"], "\(files(dir))")
        // Three days pass for every file in the folder.
        let old = Date().addingTimeInterval(-3 * 86400)
        for name in files(dir) + ["notes.txt"] {
            try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: dir + "/" + name)
        }
        // A restart now finds every earlier file past --keep by the wall clock alone: it
        // deletes none (the clock may be wrong), holds them, and says so.
        let second = try record(dir, ["--keep", "1d"], server: server)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderr.contains("retention: 3 files held from before a suspected clock step (the wall clock, not believed about them, says the newest was last written 3.0 days ago)"),
                "\(second.stderr)")
        #expect(!second.stderr.contains("retention: deleted"), "\(second.stderr)")
        // The next one finds the second run's files within --keep: the hold stays all the
        // same (the clock is not believed about the files it held), and says so again.
        let third = try record(dir, ["--keep", "1d"], server: server)
        #expect(third.status == 0, "\(third.stderr)")
        #expect(!third.stderr.contains("retention: deleted"), "\(third.stderr)")
        #expect(third.stderr.contains("retention: 3 files held from before a suspected clock step"), "\(third.stderr)")
        // jackwave has now run two 2.5-s recordings with them held: past a --keep of 2 s.
        let fourth = try record(dir, ["--keep", "2s"], server: server)
        #expect(fourth.status == 0, "\(fourth.stderr)")
        for name in ours { #expect(fourth.stderr.contains("retention: deleted \(name) ("), "\(fourth.stderr)") }
        #expect(try String(contentsOfFile: dir + "/m-001.wav", encoding: .utf8) == "foreign")
        #expect(FileManager.default.fileExists(atPath: dir + "/notes.txt"))
        let deleted = Set(try events(dir, kind: "file_deleted").compactMap { $0["path"] as? String })
        #expect(deleted.isSuperset(of: ours) && !deleted.contains("m-001.wav"), "\(deleted)")
        // Held in the second run and the third (the fourth may hold the later runs' files).
        #expect(try events(dir, kind: "retention_held").filter { $0["files"] as? Int == 3 }.count == 2)
    }

    /// jackwave with `--keep 30d` and the wall clock 40 days ahead (faketime), three pieces.
    func recordAhead(_ dir: String, server: any TestServer) throws -> Run.Output {
        // As a bad RTC at boot or an NTP step gives: the wall clock only (the monotonic clock,
        // which JACK and the run's own files go by, is left alone).
        try Run.tool("/usr/bin/faketime", ["-f", "+40d", Run.jackwave, "--record", dir + "/m.wav", "-c", "2", "--manual",
                                           "--split", "1", "-d", "2.5", "--keep", "30d",
                                           "--events", dir + "/ahead-\(UUID().uuidString.prefix(8)).jsonl"],
                     server: server.name, environment: ["FAKETIME_DONT_FAKE_MONOTONIC": "1"])
    }

    @Test("restarted twice with the wall clock 40 days ahead, nothing from before the jump is deleted at either; each says so",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/faketime")))
    func clockAheadDeletesNothing() throws {
        let server = try ServerKind.jackd.start()
        let dir = temporaryDirectory()
        #expect(try record(dir, ["--keep", "30d"], server: server).status == 0)
        let before = files(dir)
        #expect(before.count == 3, "\(before)")
        let out = try recordAhead(dir, server: server)
        #expect(out.status == 0, "\(out.stderr)")
        #expect(!out.stderr.contains("retention: deleted"), "\(out.stderr)")
        #expect(out.stderr.contains("retention: 3 files held from before a suspected clock step (the wall clock, not believed about them, says the newest was last written 40.0 days ago)"),
                "\(out.stderr)")
        // faketime moves the clock jackwave reads, not the one the kernel stamps files with:
        // the second run's pieces are given the time a clock 40 days ahead would have
        // stamped. (While that run wrote them they looked 40 days old to it, a step during
        // the run, so it held them too.)
        let ahead = Date().addingTimeInterval(40 * 86400)
        for name in files(dir) where !before.contains(name) {
            try FileManager.default.setAttributes([.modificationDate: ahead], ofItemAtPath: dir + "/" + name)
        }
        // The second restart, the clock still ahead: the second run's pieces look right by
        // it, the first run's 40 days old. The first run's stay held.
        let again = try recordAhead(dir, server: server)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(!again.stderr.contains("retention: deleted"), "\(again.stderr)")
        #expect(again.stderr.contains(" files held from before a suspected clock step"), "\(again.stderr)")
        let events = try events(dir, kind: "retention_held")
        #expect(events.count == 2 && events.allSatisfy { ($0["files"] as? Int ?? 0) >= 3 }, "\(events)")
        #expect(Set(before).isSubset(of: Set(files(dir))) && files(dir).count == 9, "\(files(dir))")
    }

    @Test("a piece rewritten with its marker's cue point stays in retention, and goes in its turn")
    func markedPieceStaysTracked() throws {
        let server = try ServerKind.jackd.start()
        let dir = temporaryDirectory()
        let run = try Run.start(Run.jackwave, ["--record", dir + "/m.wav", "-c", "2", "--manual", "--bits", "float", "--split", "1",
                                               "-d", "5", "--keep", "2s", "--no-meter"], server: server.name)
        defer { if run.isRunning { run.signal(SIGKILL) } }
        // A marker in the first piece (SIGUSR1, as the m key or /jackwave/marker drops one).
        #expect(run.waitForRecordedFrames(dir + "/m-001.wav", moreThan: 4800), "\(run.stderrSoFar)")
        run.signal(SIGUSR1)
        let out = run.finish(timeout: 60)
        #expect(out.status == 0, "\(out.stderr)")
        // Its cue point was written, which gives the piece a new inode; retention followed it.
        #expect(out.stderr.contains(": m-001.wav frame "), "\(out.stderr)")
        #expect(out.stderr.contains("retention: deleted m-001.wav ("), "\(out.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/m-001.wav"))
    }

    @Test("--keep-space keeps its own files within the quota as it goes, never the file being written, nor a foreign file")
    func keepSpace() throws {
        let server = try ServerKind.jackd.start()
        let dir = temporaryDirectory()
        let foreign = Data(repeating: 7, count: 2 << 20)
        _ = FileManager.default.createFile(atPath: dir + "/m-001.wav", contents: foreign)
        // 2 channels of float at 48 kHz: 384 000 bytes a second, a piece a second; 1 MiB holds two.
        let out = try record(dir, ["--keep-space", "1M"], server: server, seconds: "5")
        #expect(out.status == 0, "\(out.stderr)")
        let left = files(dir).filter { $0 != "m-001.wav" }
        let bytes = try left.map { try #require(try FileManager.default.attributesOfItem(atPath: dir + "/" + $0)[.size] as? Int, "\($0)") }
        #expect(bytes.reduce(0, +) <= 1 << 20, "\(left) \(bytes)")
        #expect(left.last == "m-006.wav" && !left.isEmpty, "\(left)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/m-001.wav")) == foreign)
        // Each deletion came after its file had closed: never the file being written.
        let logs = ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).filter { $0.hasSuffix(".jsonl") }
        let lines = try EventStream.read(dir + "/" + (try #require(logs.first, "no event log in \(dir)")))
        let deleted = lines.filter { $0["event"] as? String == "file_deleted" }.compactMap { $0["path"] as? String }
        #expect(!deleted.isEmpty && deleted.allSatisfy { left.contains($0) == false }, "\(deleted)")
        for name in deleted {
            let closedAt = lines.firstIndex { $0["event"] as? String == "file_closed" && ($0["path"] as? String)?.hasSuffix("/" + name) == true }
            let deletedAt = lines.firstIndex { $0["event"] as? String == "file_deleted" && $0["path"] as? String == name }
            #expect(closedAt != nil && deletedAt != nil && closedAt! < deletedAt!, "\(name)")
            #expect(out.stderr.contains("retention: deleted \(name) ("), "\(out.stderr)")
        }
        // The quota in units it can be read in: "of 1.0 MiB", not "of 0.0 GiB".
        #expect(out.stderr.contains(" MiB of 1.0 MiB)"), "\(out.stderr)")
    }
    /// What retention finds at the start that it cannot trust, made in `dir` after a first run.
    enum StartProblem: String, CaseIterable, Sendable {
        case corruptLine = "a corrupt manifest line"
        case foreignManifest = "a manifest owned by another user"
        case foreignLockHeld = "another user's 0666 lock file, held"
    }

    @Test("retention that cannot start never stops the recording: a line, a retention_off event, the manifest kept as it was",
          arguments: StartProblem.allCases)
    func startProblemRecordsAnyway(problem: StartProblem) throws {
        let server = try ServerKind.jackd.start()
        let dir = temporaryDirectory()
        let manifest = dir + "/.jackwave-m.manifest", lock = dir + "/.jackwave-m.lock"
        var holder: Run.Running?
        defer { holder?.signal(SIGKILL); _ = holder?.finish(timeout: 5) }
        switch problem {
        case .corruptLine:
            #expect(try record(dir, ["--keep", "1d"], server: server).status == 0)
            let handle = try #require(FileHandle(forWritingAtPath: manifest))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data("{\"path\": not json\n".utf8))
            try handle.close()
        case .foreignManifest:
            #expect(try record(dir, ["--keep", "1d"], server: server).status == 0)
            #expect(chown(manifest, 65534, 65534) == 0)
        case .foreignLockHeld:
            #expect(FileManager.default.createFile(atPath: lock, contents: nil))
            #expect(chmod(lock, 0o666) == 0 && chown(lock, 65534, 65534) == 0)
            let held = try Run.start("/usr/bin/flock", ["-x", lock, "/bin/sleep", "60"], server: nil)
            holder = held
            // Held: a second flock that will not wait fails.
            #expect(waitUntil { (try? Run.tool("/usr/bin/flock", ["-xn", lock, "/bin/true"], server: nil).status) == 1 })
        }
        let before = try? Data(contentsOf: URL(fileURLWithPath: manifest))
        let filesBefore = files(dir)
        let out = try record(dir, ["--keep", "1d"], server: server)
        #expect(out.status == 0, "\(problem.rawValue): \(out.stderr)")
        #expect(out.stderr.contains("retention: off for this run, nothing will be deleted: "), "\(out.stderr)")
        #expect(try events(dir, kind: "retention_off").count == 1)
        // Recorded all the same: three more pieces.
        #expect(files(dir).count == filesBefore.count + 3, "\(files(dir))")
        #expect((try? Data(contentsOf: URL(fileURLWithPath: manifest))) == before, "the manifest is left as it was")
    }
}

/// A file system without birth times: a loop-mounted ext4 made with 128-byte inodes, in a
/// mount namespace of the test's own (`unshare -m`), so that the mount ends with it.
extension RetentionEndToEndTests {
    /// The script, run as `sh -c SCRIPT sh IMAGE MOUNT AWAY JACKWAVE`: records three pieces
    /// with `--keep-space`, moves the first to another file system (its inode is freed),
    /// creates files until one gets that inode number, renames it to the first piece's name,
    /// and runs the same recording again with a quota that wants every earlier piece gone.
    static let reusedInodeScript = """
        set -e
        img=$1 mnt=$2 away=$3 jw=$4
        truncate -s 64M "$img"
        mkfs.ext4 -q -F -I 128 "$img" 2>/dev/null
        mkdir -p "$mnt" "$away"
        mount -o loop "$img" "$mnt"
        rec() { "$jw" --record "$mnt/m.wav" -c 2 --manual --bits float --split 1 -d 2.5 --no-meter --keep-space "$1" 2>&1; }
        rec 1G >"$away/first.txt"
        echo "birth=$(stat -c %W "$mnt/m-001.wav")"
        ino=$(stat -c %i "$mnt/m-001.wav")
        mv "$mnt/m-001.wav" "$away/m-001.wav"
        i=0
        while [ $i -lt 500 ]; do
          i=$((i + 1))
          printf 'not jackwave%s' "$i" >"$mnt/.f$i"
          if [ "$(stat -c %i "$mnt/.f$i")" = "$ino" ]; then mv "$mnt/.f$i" "$mnt/m-001.wav"; echo "reused=$i"; break; fi
        done
        rec 1M
        echo "left: $(cd "$mnt" && ls m-*.wav | tr '\\n' ' ')"
        echo "content: $(head -c 20 "$mnt/m-001.wav")"
        """

    @Test("on a file system without birth times, a stranger's file that got the freed inode number of a piece is never deleted")
    func reusedInodeWithoutBirthTime() throws {
        let server = try ServerKind.jackd.start()
        let dir = temporaryDirectory()
        let out = try Run.tool("/usr/bin/unshare", ["-m", "/bin/sh", "-c", Self.reusedInodeScript, "sh",
                                                    dir + "/fs.img", dir + "/mnt", dir + "/away", Run.jackwave],
                               server: server.name, timeout: 90)
        #expect(out.status == 0, "\(out.stdout)\(out.stderr)")
        // The premise: no birth time here, and the stranger's file has the piece's inode number.
        #expect(out.stdout.contains("birth=0\n"), "\(out.stdout)")
        #expect(out.stdout.contains("reused="), "no new file got the freed inode number:\n\(out.stdout)")
        // The stranger's file stays; jackwave's own earlier pieces go (the ownership tag
        // tells them apart), and the refusal of the stranger's is silent.
        #expect(out.stdout.contains("content: not jackwave"), "\(out.stdout)")
        #expect(!out.stdout.contains("retention: deleted m-001.wav"), "\(out.stdout)")
        #expect(out.stdout.contains("retention: deleted m-002.wav") && out.stdout.contains("retention: deleted m-003.wav"),
                "\(out.stdout)")
    }
}

/// The retention model (RetentionModelTests, which drives `Retention` itself) checked end to
/// end on a handful of seeds: real runs of jackwave with `--keep` and `--keep-space`, under a
/// wall clock that faketime steps, with strangers' steps between the runs.
extension RetentionEndToEndTests {
    /// One run: three pieces of 4 float channels (0.77 MB a full one), a quota of 2 MiB and
    /// an age of 2 days, the wall clock `days` off.
    func modelRun(_ dir: String, days: Int, server: any TestServer) throws -> Run.Output {
        let arguments = ["--record", dir + "/m.wav", "-c", "4", "--manual", "--bits", "float", "--split", "1", "-d", "2.2",
                         "--keep", "2d", "--keep-space", "2M", "--no-meter"]
        guard days != 0 else { return try Run.jackwave(arguments, server: server.name) }
        return try Run.tool("/usr/bin/faketime", ["-f", "\(days > 0 ? "+" : "")\(days)d", Run.jackwave] + arguments,
                            server: server.name, environment: ["FAKETIME_DONT_FAKE_MONOTONIC": "1"])
    }

    /// The paths the manifest lists.
    func listed(_ dir: String) throws -> Set<String> {
        let text = try String(contentsOfFile: dir + "/.jackwave-m.manifest", encoding: .utf8)
        return Set(text.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["path"] as? String
        })
    }

    @Test("random runs and strangers' steps never delete a stranger's file, nor drop one of jackwave's from its manifest",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/faketime")),
          arguments: [7, 8, 9] as [UInt64])
    func randomSequences(seed: UInt64) throws {
        let server = try ServerKind.jackd.start()
        let dir = temporaryDirectory()
        var random = SplitMix64(seed: seed)
        var foreign: [String: Data] = [:]  // the strangers' files, and what each holds
        var own: [String: UInt64] = [:]    // jackwave's, still in place, and each one's inode
        var days = 0
        var trail: [String] = []
        func inode(_ name: String) -> UInt64? {
            var info = stat()
            return lstat(dir + "/" + name, &info) == 0 ? UInt64(info.st_ino) : nil
        }
        for round in 0..<3 {
            switch Int.random(in: 0..<4, using: &random) {
            case 0:  // a stranger's file under a name jackwave would take next, or any name
                let name = Bool.random(using: &random) ? "m-\(String(format: "%03d", own.count + foreign.count + 1)).wav" : "notes-\(round).txt"
                let data = Data("stranger \(round)".utf8)
                if inode(name) == nil, FileManager.default.createFile(atPath: dir + "/" + name, contents: data) {
                    foreign[name] = data
                    trail.append("foreign \(name)")
                }
            case 1:  // renamed over one of jackwave's pieces
                if let name = own.keys.sorted().first {
                    let data = Data("stranger over \(name)".utf8)
                    try data.write(to: URL(fileURLWithPath: dir + "/staging"))
                    #expect(rename(dir + "/staging", dir + "/" + name) == 0)
                    own[name] = nil
                    foreign[name] = data
                    trail.append("rename over \(name)")
                }
            case 2:  // a hard link to one of jackwave's pieces, kept by a stranger
                if let name = own.keys.sorted().last, link(dir + "/" + name, dir + "/backup-\(round).wav") == 0 {
                    foreign["backup-\(round).wav"] = FileManager.default.contents(atPath: dir + "/" + name)
                    trail.append("link \(name)")
                }
            default:  // the wall clock steps
                days += Int.random(in: -5...5, using: &random)
                trail.append("clock \(days) d")
            }
            let before = Set((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? [])
            let out = try modelRun(dir, days: days, server: server)
            trail.append("run: " + out.stderr.split(separator: "\n").filter { $0.contains("retention") }.joined(separator: "; "))
            #expect(out.status == 0, "seed \(seed): \(out.stderr)")
            let after = Set((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? [])
            for name in after.subtracting(before) where name.hasSuffix(".wav") { own[name] = inode(name) }
            // Deleted by jackwave: no longer there.
            for name in own.keys where inode(name) == nil { own[name] = nil }
            for (name, data) in foreign {
                #expect(FileManager.default.contents(atPath: dir + "/" + name) == data,
                        "seed \(seed): the stranger's \(name) was deleted or changed:\n\(trail.joined(separator: "\n"))")
            }
            let manifest = try listed(dir)
            for name in own.keys {
                #expect(manifest.contains(name), "seed \(seed): jackwave's \(name) left its manifest:\n\(trail.joined(separator: "\n"))")
            }
        }
        print("retention sequence \(seed): " + trail.joined(separator: " | "))
    }
}
