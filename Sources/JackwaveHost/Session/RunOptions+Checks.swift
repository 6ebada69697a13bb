import FoundationEssentials
import Glibc
import JackwaveMIDI
import JackwaveRecording
import JackwaveRunSupport
import JackwaveSoundFiles
import JackwaveStreaming
import JackwaveVocabulary

/// The checks a run's options must pass before anything is touched: the ones that need only
/// the disk (`checkOutputs`, before JACK), and the ones that need the server's rate, period
/// and port count (`recordingSpec`, `takeSettings`). Each failure is a usage error (exit 2).
extension RunOptions {
    /// How the recording's files are named: numbered whenever the recording may be cut
    /// (`--split`, `--reconnect`, `--osc`), by take when armed.
    public var fileNaming: FileNaming? {
        recording.path.map { path in
            let takeNames = station.splitEvery == nil
                ? station.namePattern.map { FileNaming.TakeNames(pattern: $0.text, production: timecode.production) } : nil
            return FileNaming(base: path, armed: armed, cut: numbersFiles, takeNames: takeNames)
        }
    }

    /// Checks every output path and returns the recording's format. Numbered files never
    /// refuse the files that exist (a run numbers on after them); one file refuses an
    /// existing file unless `--force`.
    public func checkOutputs() throws(UsageError) -> SoundFormat? {
        var recordFormat: SoundFormat?
        var midiPath: String?
        if let path = recording.path, recordsMidiOnly {
            try OutputPath.check(path, force: recording.force, option: Setting.record)
            try checkTimecodeFormat(nil, path: path)
        } else if let path = recording.path, let naming = fileNaming {
            let named = recording.format
            let chosen = try usage { () throws(FileChoiceError) in
                try FileChoice.format(for: path, named: named, depth: recording.depth, rate: recording.fileRate)
            }
            let first = naming.firstNumbers()
            try OutputPath.check(naming.path(take: first.take, piece: first.piece), force: recording.force, option: Setting.record)
            if midi.inputs > 0 {
                // The MIDI beside the first file: refused now, as the file itself would be.
                midiPath = MidiRecordingSettings.midiPath(beside: naming.path(take: first.take, piece: first.piece))
                try OutputPath.check(midiPath!, force: recording.force, option: Setting.record)
            }
            try checkClockNames(format: chosen)
            try checkNameLengths(naming: naming, path: path)
            try checkTimecodeFormat(chosen, path: path)
            recordFormat = chosen
        }
        if let path = levels.path, path != "-" {
            try OutputPath.check(path, force: recording.force, option: Setting.levels)
        }
        if let path = recording.plotPath {
            guard ["png", "svg"].contains(FileNames.lowercasedExtension(path)) else {
                throw UsageError("\(setting: .plot) \(path): unknown extension (use .png or .svg)")
            }
            let first = fileNaming?.firstNumbers() ?? (take: 0, piece: 1)
            try OutputPath.check(fileNaming?.companion(path, take: first.take, piece: first.piece) ?? path,
                                 force: recording.force, option: Setting.plot)
        }
        if let path = unattended.eventsPath, path != "-" {
            try OutputPath.check(path, force: recording.force, option: Setting.events)
        }
        // Two options naming one file (`take.wav` and `./take.wav`) would write over each other.
        let named = [(Setting.record, recording.path), (Setting.midi, midiPath), (Setting.levels, levels.path == "-" ? nil : levels.path),
                     (Setting.plot, recording.plotPath), (Setting.events, unattended.eventsPath == "-" ? nil : unattended.eventsPath)]
            .compactMap { option, path in path.map { (option, $0, OutputPath.canonical($0)) } }
        for (i, a) in named.enumerated() {
            for b in named[(i + 1)...] where a.2 == b.2 {
                throw UsageError("\(setting: a.0) and \(setting: b.0) name the same file (\(a.1))")
            }
        }
        return recordFormat
    }

    /// The recording's files, now that the server's rate and the channels are known.
    public func recordingSpec(path: String, format: SoundFormat, channels: Int, serverRate: Int,
                              period: Int) throws(UsageError) -> RecordingSpec {
        let rate = recording.fileRate ?? serverRate
        let split = try usage { () throws(FileChoiceError) -> Int64? in
            try FileChoice.checkRate(rate, format: format, given: recording.fileRate != nil)
            return try recording.splitSeconds.map { seconds throws(FileChoiceError) in try FileChoice.splitFrames(seconds, rate: rate) }
        }
        if let word = format.formatWord(depth: recording.depth),
           !SoundFile.canWrite(format: word, channels: channels, sampleRate: rate) {
            throw UsageError("\(setting: .record) \(path): libsndfile cannot write this format with \(channels) channels at \(rate) Hz")
        }
        try Self.checkBuffer(recording.bufferSeconds, channels: channels, serverRate: serverRate, period: period)
        var spec = RecordingSpec(path: path, format: format, depth: recording.depth, channels: channels, inputRate: serverRate,
                                 fileRate: rate, dither: recording.dither, splitFrames: split, naming: fileNaming)
        spec.clock = try clockPlan(path: path, channels: channels, fileRate: rate)
        spec.compression = try usage { () throws(FileChoiceError) in
            try FileChoice.checkChannels(channels, format: format, path: path)
            return try recording.quality?.settings(for: format, channels: channels, sampleRate: rate)
        }
        spec.replacesFiles = recording.force
        spec.production = timecode.production
        return spec
    }

    /// The timecode and the production fields go into `bext` and `iXML`, which only WAV and
    /// RF64 files carry (libsndfile writes neither into W64): in any other format they would
    /// have no effect, and are refused.
    /// A field a take's name uses (`%S` the scene) has its effect there, whatever the format.
    func checkTimecodeFormat(_ format: SoundFormat?, path: String) throws(UsageError) {
        if let format, format.carriesBroadcastInfo { return }
        let p = timecode.production
        let named = station.splitEvery == nil ? station.namePattern?.specifiersUsed ?? [] : []
        let given: [(Bool, Setting)] = [(timecode.ltcPort != nil, .ltc), (p.project != nil && !named.contains("P"), .project),
                                        (p.scene != nil && !named.contains("S"), .scene), (p.firstTake != nil && !named.contains("T"), .take),
                                        (p.tape != nil && !named.contains("R"), .tape), (p.note != nil, .note)]
        guard let setting = given.first(where: \.0)?.1 else { return }
        let files = format.map { "\($0.name) files" } ?? "MIDI files"
        throw UsageError("\(setting: setting) would have no effect: \(files) (\(path)) carry no bext or iXML; record to .wav or .rf64")
    }

    /// Every name the run may make, with the widest value each of its fields can take (a
    /// take's and a piece's number past `FileNaming.maximumNumber`, the wall clock's widest
    /// names, the `.mid` beside each file, the picture beside it, retention's fallback name),
    /// fits the system's limits (`OutputPath.checkLength`): a name too long is refused now,
    /// never found too long as a take starts.
    func checkNameLengths(naming: FileNaming, path: String) throws(UsageError) {
        var files: [String] = []
        var pictures: [String] = []
        var fallbackFolder: String?
        if station.splitEvery != nil {
            let clock = ClockNaming(record: path, pattern: station.namePattern, utc: station.utc)
            let relative = clock.widestRelativePath
            files.append(clock.folder.isEmpty ? relative : clock.folder.hasSuffix("/") ? clock.folder + relative : clock.folder + "/" + relative)
            pictures += recording.plotPath.map { [clock.companion($0, relativePath: relative)] } ?? []
            fallbackFolder = clock.folder
        } else {
            let widest = FileNaming.maximumNumber + 1
            files.append(naming.path(take: widest, piece: widest))
            pictures += recording.plotPath.map { [naming.companion($0, take: widest, piece: widest)] } ?? []
            if station.retention.seconds != nil || station.retention.bytes != nil { fallbackFolder = FileNames.directory(naming.base) }
        }
        if let folder = fallbackFolder {
            // `RecordingFiles.makeOrFallBack`'s name: the seconds, the pid and the piece at
            // their widest, the pattern's extension if it is 16 bytes or less.
            let ext = FileNames.stemAndExtension(files[0]).ext
            let name = "jackwave-253402300799-4194304-\(FileNaming.maximumNumber + 1)" + (ext.utf8.count <= 16 ? ext : "")
            files.append(folder.isEmpty ? name : folder.hasSuffix("/") ? folder + name : folder + "/" + name)
        }
        if midi.inputs > 0 { files += files.map(MidiRecordingSettings.midiPath(beside:)) }
        for file in files { try OutputPath.checkLength(file, option: Setting.record) }
        for picture in pictures { try OutputPath.checkLength(picture, option: Setting.plot) }
    }

    /// `--split-every`'s names: a `--name-pattern` names files of `--record`'s format.
    func checkClockNames(format: SoundFormat) throws(UsageError) {
        guard let pattern = station.namePattern, let path = recording.path else { return }
        guard SoundFormat.forPath(pattern.text) == format || FileNames.lowercasedExtension(pattern.text) == FileNames.lowercasedExtension(path) else {
            throw UsageError("\(setting: .namePattern) \(pattern.text): its extension names another format than \(setting: .record) \(path) (\(format.name))")
        }
    }

    /// `--split-every`, `--name-pattern`, `--utc` and `--overlap` as the files' plan, once the
    /// file's rate is known; the overlap's memory (the writer keeps that much audio to begin
    /// each next piece with) must fit in a quarter of this machine's.
    func clockPlan(path: String, channels: Int, fileRate: Int) throws(UsageError) -> ClockPlan? {
        guard let period = station.splitEvery else { return nil }
        let overlap = Int64(((station.overlapSeconds ?? 0) * Double(fileRate)).rounded())
        let bytes = Double(overlap) * Double(channels * MemoryLayout<Float>.stride)
        if bytes > Self.memoryBytes / 4 {
            throw UsageError("\(setting: .overlap) \((station.overlapSeconds ?? 0).plainText) s × \(channels) channels keeps \(String(printf: "%.1f", bytes / 1e9)) GB of audio, more than a quarter of this machine's memory")
        }
        return ClockPlan(period: period, naming: ClockNaming(record: path, pattern: station.namePattern, utc: station.utc), overlapFrames: overlap)
    }

    /// `--stream`, before anything is opened: libshout loads, and a password is given (in
    /// `environment`, a file or the URL); `--stream-ca` is a file, and only with TLS. Returns
    /// the warnings to say: a password in the URL, a password file others can read, a login
    /// that leaves this machine in clear.
    public func checkStream(environment: [String: String]) throws(UsageError) -> [Phrase] {
        guard let target = station.stream else { return [] }
        if let missing = Shout.unavailable { throw UsageError(missing) }
        if let authorities = station.streamCertificateAuthorities {
            guard target.tls else { throw UsageError("\(setting: .streamCertificateAuthorities) has no effect on icecast://, which has no TLS: use icecasts://") }
            try Self.checkReadableFile(authorities, option: Setting.streamCertificateAuthorities)
        }
        var warnings: [Phrase]
        do throws(StreamTargetError) {
            warnings = try StreamPassword.resolve(target, file: station.streamPasswordFile, environment: environment).warnings
        } catch {
            throw UsageError(error.message)
        }
        if !target.tls && !target.isLoopback {
            warnings.append("\(setting: .stream): the login (its password only base64-encoded) and the audio go to \(target.host) in clear; icecasts:// sends them over TLS")
        }
        return warnings
    }

    /// A regular file this user can read (opened without blocking, so a FIFO is refused at
    /// once, never waited on).
    static func checkReadableFile(_ path: String, option: Setting) throws(UsageError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw UsageError("\(setting: option) \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { throw UsageError("\(setting: option) \(path): not a regular file") }
    }

    /// The stream's settings once the server's rate and the inputs are known: the codec must
    /// take them (MP3: 1 or 2 channels; Opus: 48 kHz and four lower rates).
    public func streamSettings(channels: Int, serverRate: Int, environment: [String: String]) throws(UsageError) -> StreamSettings? {
        guard let target = station.stream else { return nil }
        let format = target.codec.format
        let password: String
        do throws(StreamTargetError) {
            password = try StreamPassword.resolve(target, file: station.streamPasswordFile, environment: environment).password
        } catch {
            throw UsageError(error.message)
        }
        let compression = try usage { () throws(FileChoiceError) -> CompressionSettings? in
            if let most = format.maximumChannels, channels > most {
                throw FileChoiceError("\(setting: .stream) \(target.display): \(format.name) streams hold 1 or \(most) channels, not \(channels)")
            }
            if let rates = format.sampleRates, !rates.contains(serverRate) {
                throw FileChoiceError("\(setting: .stream) \(target.display): \(format.name) takes \(rates.map { String($0) }.joined(separator: ", ")) Hz, and the server runs at \(serverRate) Hz")
            }
            return try station.streamQuality?.settings(for: format, channels: channels, sampleRate: serverRate, option: Setting.streamQuality)
        }
        var trusted = target
        trusted.certificateAuthorities = station.streamCertificateAuthorities
        return StreamSettings(target: trusted, password: password, compression: compression)
    }

    /// The ring must hold a few periods (a smaller one would drop every block, since blocks
    /// go in whole), and must fit in memory (it is mapped and locked up front).
    static func checkBuffer(_ seconds: Double, channels: Int, serverRate: Int, period: Int) throws(UsageError) {
        let frames = Int(seconds * Double(serverRate))
        let minimum = 4 * max(period, 1)
        if frames < minimum {
            throw UsageError("\(setting: .buffer) \(seconds.plainText) s holds \(frames) frames; this server's period needs at least \(minimum) (\(String(printf: "%.3f", Double(minimum) / Double(serverRate))) s)")
        }
        let bytes = Double(frames) * Double(channels) * Double(MemoryLayout<Float>.stride)
        if bytes > Self.memoryBytes / 2 {
            throw UsageError("\(setting: .buffer) \(seconds.plainText) s × \(channels) channels needs \(String(printf: "%.1f", bytes / 1e9)) GB, more than half of this machine's memory")
        }
    }

    /// The take settings at the server's rate, or nil when not armed. The pre-roll is
    /// mapped and locked up front: with the ring, it must fit in half of the machine's memory.
    public func takeSettings(channels: Int, serverRate: Int) throws(UsageError) -> TakeSettings? {
        guard armed, records, !recordsMidiOnly else { return nil }
        let preRoll = Int((takes.preRollSeconds * Double(serverRate)).rounded())
        let bytes = Double(preRoll + Int(recording.bufferSeconds * Double(serverRate))) * Double(channels) * Double(MemoryLayout<Float>.stride)
        if bytes > Self.memoryBytes / 2 {
            let most = (Self.memoryBytes / 2 / Double(channels * MemoryLayout<Float>.stride) - recording.bufferSeconds * Double(serverRate)) / Double(serverRate)
            throw UsageError("\(setting: .preRoll) \(takes.preRollSeconds.plainText) s × \(channels) channels needs \(String(printf: "%.1f", bytes / 1e9)) GB with the \(setting: .buffer) ring, more than half of this machine's memory (at most \(String(printf: "%.0f", max(0, most))) s here)")
        }
        let start: TakeSettings.Start = midi.controlPort != nil ? .machineControl
            : takes.triggerLevel.map { .level($0) } ?? .transport
        // 6 dB under the trigger: half its amplitude.
        let stop = takes.stopLevel ?? (takes.triggerLevel ?? 0) / 2
        let after = takes.stopAfterSeconds ?? (takes.followTransport ? 0 : 2)
        return TakeSettings(start: start, stopLevel: stop, preRollFrames: preRoll,
                            stopAfterFrames: Int64((after * Double(serverRate)).rounded()),
                            maximumTakes: takes.maximumTakes)
    }

    /// This machine's memory, in bytes.
    static var memoryBytes: Double { Double(sysconf(Int32(_SC_PHYS_PAGES))) * Double(sysconf(Int32(_SC_PAGESIZE))) }

    /// A file check's failure as a usage error (exit code 2).
    private func usage<T>(_ check: () throws(FileChoiceError) -> T) throws(UsageError) -> T {
        do throws(FileChoiceError) { return try check() } catch { throw UsageError(error.message) }
    }
}
