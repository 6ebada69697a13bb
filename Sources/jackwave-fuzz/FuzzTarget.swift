import JackwaveVocabulary
import FoundationEssentials
import Glibc
import JackwaveCLI
import JackwaveHost
import JackwaveDSP
import JackwaveLevelStream
import JackwaveMIDI
import JackwavePlot
import JackwaveNSM
import JackwaveRunSupport
import JackwaveSoundFiles
import JackwaveUnattended

/// What jackwave parses from outside, each as a fuzz target: an input is any bytes, and no
/// input may crash, trap, hang or grow memory without bound (libFuzzer's `-rss_limit_mb`,
/// `-timeout` and `-malloc_limit_mb` say so). Refusals are the expected outcome.
enum FuzzTarget: String, CaseIterable {
    /// A level stream, CSV and JSON Lines (`LevelStreamReader`), with plot's bound on rows;
    /// one that reads is drawn as `jackwave plot` draws it (`Plot.draw`, a small PNG in
    /// /dev/shm): whole, up to its first row's time, and from its last row's.
    case csv, jsonl
    /// A UDP datagram: liblo's decoding (`OscDecoder`), then every message through the
    /// dispatcher (`RemoteControl.handle`, no run attached) and its lines through the escaping,
    /// and through a session manager client's reading of it (`NSMClient.request`).
    case osc
    /// A command line: the bytes split at NUL into arguments (`Jackwave.parseOnly`), and the
    /// OSC option values (`OscBinding`, `OscNetwork`); a run's that parses, through the checks
    /// made once the server's rate is known (`RunOptions.takeSettings`, `recordingSpec`), at
    /// the lowest, a common and the highest rate.
    case options
    /// A sound file: the bytes as a file, opened as plot opens one (`SoundFile(readingFrom:)`:
    /// libsndfile's header, then `SoundFileHeaderCheck`), a few frames and its cue points read.
    case soundfile
    /// MIDI events as a JACK client may send them: the bytes cut into events (a length byte,
    /// 1–255, then that many bytes), each into ring records (`MidiRecord.fill`), joined and split
    /// into messages by `MidiAssembler`, and looked at for MMC (`MachineControl.command`).
    case midi
    /// A Standard MIDI File, read as `jackwave plot take.mid` reads one (`MidiNotes`: the
    /// checks before portSMF, then portSMF).
    case smf
    /// Folder contents into the namer: the bytes split at newlines into the names of a
    /// folder, numbered as pieces and as takes in pieces read them (`FileNaming.numbers`):
    /// the next number must be one no usable name holds, and never past the bound. The
    /// first name, if it is a `--name-pattern`, names a take and a wall-clock piece.
    case names
    /// A Standard MIDI File drawn as `jackwave plot take.mid` draws one (`Plot.draw`): read
    /// through `MidiNotes`, then laid out as a piano roll (`MidiPictureRenderer`) into a
    /// small PNG in /dev/shm.
    case smfplot
    /// MIDI events through the assembler into jackwave's own file writer, the file read
    /// back and compared with what went in (MidiFileFuzz.swift).
    case midifile

    /// The target `JACKWAVE_FUZZ_TARGET` names (csv when unset).
    static let chosen: FuzzTarget = {
        let name = getenv("JACKWAVE_FUZZ_TARGET").map { String(cString: $0) } ?? "csv"
        guard let target = FuzzTarget(rawValue: name) else {
            let line = "jackwave-fuzz: JACKWAVE_FUZZ_TARGET must be one of \(allCases.map(\.rawValue).joined(separator: ", ")), not '\(name)'\n"
            _ = line.withCString { write(2, $0, strlen($0)) }
            exit(2)
        }
        return target
    }()

    static func runOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
        let bytes = UnsafeBufferPointer(start: data, count: data == nil ? 0 : size)
        switch chosen {
        case .csv: levelStream(bytes, .csv)
        case .jsonl: levelStream(bytes, .jsonl)
        case .osc: osc(bytes)
        case .options: options(bytes)
        case .soundfile: soundFile(bytes)
        case .midi: midi(bytes)
        case .smf: smf(bytes)
        case .names: names(bytes)
        case .smfplot: smfPlot(bytes)
        case .midifile: midiFile(bytes)
        }
        return 0
    }

    static func levelStream(_ bytes: UnsafeBufferPointer<UInt8>, _ format: LevelStreamFormat) {
        guard let table = try? LevelStreamReader.parse(TextBytes(Data(bytes)), format: format, path: "fuzz", maximumPeaks: 1 << 14)
        else { return }
        let path = "/dev/shm/jackwave-fuzz-\(getpid()).\(format.rawValue)"
        save(bytes, to: path)
        let small = (width: PlotOptions.widthRange.lowerBound, height: PlotOptions.heightRange.lowerBound)
        for (start, end) in [(nil, nil), (nil, table.times.first), (table.times.last, nil)] as [(Double?, Double?)] {
            let options = PlotOptions(width: small.width, height: small.height, start: start, end: end)
            _ = try? Plot.draw(path, to: smfPicturePath, options: options, existing: .replace)
        }
    }

    /// One decoder and one remote control for the whole run, as jackwave has.
    nonisolated(unsafe) static let decoder = OscDecoder()
    static let remote = RemoteControl(control: RunControl(tone: nil, records: true), requestStop: {})

    static func osc(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let decoder else { fatalError("no OSC decoder: is TMPDIR writable?") }
        var copy = Array(bytes)
        let decoded = copy.withUnsafeMutableBytes { decoder.decode($0, limit: 256) }
        for message in decoded.messages {
            _ = remote.handle(message.path, message.arguments)
            _ = NSMClient.request(message.path, message.arguments)
        }
        for line in remote.lines.drain() { _ = TerminalEscaping.escape(line.text(naming: { "\($0)" })) }
    }

    static func options(_ bytes: UnsafeBufferPointer<UInt8>) {
        let arguments = bytes.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        _ = Jackwave.parseOnly(arguments)
        if let run = try? RunOptionsParser.parse(arguments) {
            let channels = run.jack.channels ?? 2
            for rate in [1000, 48000, 768_000] {
                _ = try? run.takeSettings(channels: channels, serverRate: rate)
                if let path = run.recording.path, let format = SoundFormat.forPath(path) {
                    _ = try? run.recordingSpec(path: path, format: format, channels: channels, serverRate: rate, period: 1024)
                }
            }
        }
        for argument in arguments.prefix(4) {
            _ = OscBinding.parse(argument)
            _ = OscNetwork(argument)
        }
    }

    /// The file the sound-file target writes each input into, in /dev/shm (memory, not disk).
    static let soundPath = "/dev/shm/jackwave-fuzz-\(getpid()).wav"

    /// Writes the input into `path` whole (the targets that read files).
    static func save(_ bytes: UnsafeBufferPointer<UInt8>, to path: String) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { fatalError("cannot write \(path)") }
        if let base = bytes.baseAddress, !bytes.isEmpty { _ = Glibc.write(fd, base, bytes.count) }
        close(fd)
    }

    static func soundFile(_ bytes: UnsafeBufferPointer<UInt8>) {
        save(bytes, to: soundPath)
        guard let file = try? SoundFile(readingFrom: soundPath) else { return }
        let frames = file.framesPerRead(upTo: 4096)
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: frames * file.channels)
        defer { buffer.deallocate() }
        _ = file.read(into: buffer, count: frames)
        _ = file.cues
        _ = file.broadcastInfo
        _ = file.channelPositions
        file.close()
    }
}

extension FuzzTarget {
    static let midiRing = SPSCRing<MidiRecord>(minimumCapacity: 4096, width: 1)

    static func midi(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        var assembler = MidiAssembler(ports: 2)
        var i = 0
        var frame: Int64 = 0
        while i < bytes.count {
            let length = min(max(1, Int(bytes[i])), bytes.count - i - 1)
            i += 1
            guard length > 0 else { break }
            let data = base + i
            _ = MachineControl.command(in: data, length: length)
            let slots = MidiRecord.slots(forBytes: length)
            let region = midiRing.writableRegions(upTo: slots)
            guard region.count == slots else { break }
            MidiRecord.fill(region, frame: frame, port: UInt16(frame & 1), data: data, length: length)
            midiRing.commitWrite(slots)
            let read = midiRing.readableRegions()
            for k in 0..<read.count {
                let record = k < read.firstCount ? read.first[k] : read.second[k - read.firstCount]
                record.withBytes { assembler.take(port: Int(record.port), bytes: $0, continues: record.continues, frame: frame) { _ in } }
            }
            midiRing.commitRead(read.count)
            i += length
            frame += 1
        }
    }

    /// The file the SMF target writes each input into, in /dev/shm.
    static let smfPath = "/dev/shm/jackwave-fuzz-\(getpid()).mid"

    static func smf(_ bytes: UnsafeBufferPointer<UInt8>) {
        save(bytes, to: smfPath)
        _ = try? MidiNotes.read(path: smfPath)
    }
}

extension FuzzTarget {
    static func names(_ bytes: UnsafeBufferPointer<UInt8>) {
        let names = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        for fields in 1...2 {
            let found = FileNaming.numbers(in: names, prefix: "take-", ext: ".wav", fields: fields)
            let next = (found.numbered.map(\.number).max() ?? 0) + 1
            guard next <= FileNaming.maximumNumber + 1, found.numbered.allSatisfy({ $0.number < next }) else {
                fatalError("names: the next number \(next) is held or past the bound")
            }
            let naming = FileNaming(base: "take.wav", scheme: fields == 1 ? .pieces : .takePieces)
            let name = naming.path(take: next, piece: fields == 1 ? next : 1)
            guard !found.numbered.contains(where: { $0.name == name }) else { fatalError("names: \(name) is taken") }
        }
        guard let first = names.first, let pattern = try? NamePattern.parse(first) else { return }
        // An instant from the last 8 bytes, within what the kernel's clock can be set to
        // (64-bit nanoseconds: ±292 years around 1970, within ±2^34 s).
        var raw: Int64 = 0
        for byte in bytes.suffix(8) { raw = raw << 8 | Int64(byte) }
        let instant = WallClockTime(seconds: Int(raw % (1 << 34)), nanoseconds: 0)
        _ = pattern.path(for: instant, zone: UTCRules())
        _ = pattern.widestPath(abbreviationBytes: 6)
        _ = FileNaming.TakeNames(pattern: first, production: ProductionInfo(project: "p", scene: "s", firstTake: 1, tape: "r"))
            .name(take: FileNaming.maximumNumber + 1)
    }

    /// The picture the drawing targets (smfplot; csv and jsonl) draw each input into.
    static let smfPicturePath = "/dev/shm/jackwave-fuzz-\(getpid()).png"

    static func smfPlot(_ bytes: UnsafeBufferPointer<UInt8>) {
        save(bytes, to: smfPath)
        let options = PlotOptions(width: PlotOptions.widthRange.lowerBound, height: PlotOptions.heightRange.lowerBound)
        _ = try? Plot.draw(smfPath, to: smfPicturePath, options: options, existing: .replace)
    }
}
