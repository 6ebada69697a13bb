import Glibc
import JackwaveRunSupport
import JackwaveSoundFiles
import Synchronization
import JackwaveVocabulary

/// The files of a whole run, across reconnects: which file is open, what the next one is
/// called, and where each lies on the run's timeline.
///
/// Frames arrive in **segments**: stretches of one connection's stream that go into files
/// without a break (a whole connection when not armed; one take, or the part of a take in
/// one connection, when armed). Within a segment, pieces (`--split`, `/jackwave/split`) join
/// sample-exact; a segment's first file begins at its first frame. Positions are kept at the
/// file's rate within a segment and put on the run's timeline (server's rate) from the
/// segment's first stream frame, so a file's `bext` time and its events are exact without
/// `--rate` and within a frame with it.
///
/// Every write and every file after the first happens on the writer thread (one connection's
/// writer at a time: the next writer starts after the last has ended, which orders them).
/// The first file of an unarmed run is opened by the main thread before the run starts
/// (`openFirstFile`), so that a file that cannot be created fails before anything does.
///
/// On the wall clock (`spec.clock`, `--split-every`), each connection's cuts come from its
/// `WallClockCuts` (`RecordingFiles+Clock`), fed readings of the wall clock by the main loop;
/// files are named after their time and made with `ExclusiveFile` (never overwriting), and
/// with `--overlap` each also holds its neighbours' edges (`RecordingFiles+Overlap`). With
/// retention (`keeper`), every file made is listed in its manifest as it is made.
public final class RecordingFiles: @unchecked Sendable {
    public let spec: RecordingSpec
    let observer: (any RecordingFilesObserver)?
    /// What follows the files' pieces beside them (`--midi`), if anything does.
    package let companion: (any RecordingCompanion)?
    /// Retention (`--keep`, `--keep-space`): told of each file made.
    let keeper: FileKeeper?
    private let messages: MessageQueue?
    /// The file being written: its take and piece, and, from its first frame, what the
    /// observer was told of it.
    var current: SoundFile?
    var currentNumbers = (take: 0, piece: 0)
    var currentRecord: RecordedFile?
    /// Frames in the current file's own piece (not its `--overlap` lead-in), and in every
    /// piece so far (file rate; frames two files hold count once).
    var framesInPiece: Int64 = 0
    public internal(set) var framesWritten: Int64 = 0
    /// The next piece's number: run-wide for `.pieces`, within the open take otherwise.
    private var nextPiece: Int
    /// The next take's number, and the take open now (armed runs).
    private var nextTake: Int
    public private(set) var openTake: Int?
    /// The segment: its first frame in this connection's stream, and file frames written in
    /// it so far; the current file's own first file frame within it.
    var segmentStreamFrame: Int64 = 0
    var segmentFileFrames: Int64 = 0
    var fileStartInSegment: Int64 = 0
    /// `--split-every`: this connection's cuts on the wall clock, on its stream's frames. Set
    /// by the main thread as the connection starts (`setStart`), observed by it (`observeClock`),
    /// followed and advanced by the writer.
    let clockCuts = Mutex<WallClockCuts?>(nil)
    /// `--overlap`: the segment's last frames (for the next piece's lead-in), and the file
    /// before the current one while it takes its tail. Writer thread.
    let history: PreRollBuffer?
    var tail: OverlapTail?
    /// The current file's lead-in (frames of the piece before, `--overlap`), and the own
    /// frames of the piece before it in this segment (0 at a segment's start).
    var leadIn: Int64 = 0
    var lastPieceFrames: Int64 = 0
    /// This connection's frame 0: its wall-clock time and the inputs' capture latency (for
    /// `bext`), and its place on the run's timeline. Set by the main thread before each
    /// connection's writer starts.
    private let origin = Mutex<(start: WallClockTime?, latency: CaptureLatencyStamp?, timelineBase: Int64)>((nil, nil, 0))
    /// A cut asked for from outside (`/jackwave/split`): the frame of this connection's
    /// stream where the next file begins; -1 for none. Stored by the remote-control thread,
    /// read and cleared by the writer (relaxed: a lone value, cleared by compare-exchange so
    /// a newer request is never lost).
    private let cutRequest = Atomic<Int64>(-1)
    /// This connection's timecode (`--ltc`), set with its origin; nil for the wall clock.
    private let timecode = Mutex<(any StreamTimecode)?>(nil)
    /// How long the writer can afford to wait for a file's timecode now, in seconds: set by
    /// each connection's writer (`RecordingWriter.timecodeWaitShare` of its ring's free
    /// time), asked on the writer thread; no wait without one.
    package var timecodeWaitBudget: (() -> Double)?
    /// Why the last file begun took the wall clock's time, if it did: a line is said when
    /// that changes, not for every piece. Writer thread.
    private var lastMissing: TimecodeMissing?
    /// The open take's `iXML` FAMILY_UID, shared by its pieces (the run's, unarmed), and
    /// which take of the run it is (from 1), for `--take`'s count. Writer thread.
    private var familyUID = IXMLDocument.makeUID()
    private var takesStarted = 0
    private var takeOrdinal: Int { max(1, takesStarted) }
    /// The current file's first timecode reading, for its end's; the first file of the
    /// segment's current stretch of code: its time (file rate, not wrapped) and its frame.
    private var startReading: TimecodeReading?
    private var stretchOrigin: (stretch: Int, samples: Int64, fileFrame: Int64)?
    private let tally = Mutex(FileTally())
    /// Why the last write failed.
    public private(set) var failure: String?

    /// Files named as `spec.naming` says (numbered after the files that exist), or on the
    /// wall clock as `spec.clock` says; each made is listed by `keeper`, if any; lines for the
    /// user (a name passed over) go to `messages`.
    package init(spec: RecordingSpec, observer: (any RecordingFilesObserver)?, keeper: FileKeeper?, messages: MessageQueue?,
                 companion: (any RecordingCompanion)? = nil) {
        self.spec = spec
        self.observer = observer
        self.companion = companion
        self.keeper = keeper
        self.messages = messages
        let overlap = Int(spec.clock?.overlapFrames ?? 0)
        history = overlap > 0 ? PreRollBuffer(capacity: overlap, channels: spec.channels) : nil
        let first = spec.naming.isNumbered ? spec.naming.firstFreeNumber() : 1
        // Names jackwave cannot have written (a number beyond `FileNaming.maximumNumber`)
        // are passed over in one line, however many there are.
        let planted = spec.naming.isNumbered && spec.clock == nil ? spec.naming.passedOver() : []
        if let name = planted.first {
            let others = planted.count > 1 ? " and \(planted.count - 1) more" : ""
            messages?.post("\(name)\(others): numbered beyond \(FileNaming.maximumNumber), which no run reaches; passed over, numbering on from \(first)")
        }
        nextPiece = spec.naming.scheme == .pieces ? first : 1
        nextTake = spec.takes ? first : 1
    }

    /// Files named as `spec.naming` says, numbered after the files that exist; lines for the
    /// user (a name passed over) go to `messages`.
    public convenience init(spec: RecordingSpec, observer: (any RecordingFilesObserver)?, messages: MessageQueue? = nil) {
        self.init(spec: spec, observer: observer, keeper: nil, messages: messages)
    }

    /// Opens the first file of an unarmed run now, on the main thread, before the run starts.
    public func openFirstFile() throws(SoundFileError) {
        precondition(!spec.takes && current == nil)
        current = try open()
    }

    /// Sets this connection's frame 0: its wall-clock time and its place on the run's
    /// timeline. Main thread, before the connection's writer starts (or the time as it starts).
    public func setOrigin(start: WallClockTime?, timelineBase: Int64, timecode: (any StreamTimecode)? = nil) {
        origin.withLock { $0 = (start, nil, timelineBase) }
        self.timecode.withLock { $0 = timecode }
    }

    /// The wall-clock time of this connection's frame 0, once known, and the capture latency
    /// its files' `bext` time subtracts (read at the same moment; a later change moves no
    /// stamp, so that the pieces of a recording go on exactly from one to the next). On the
    /// wall clock (`--split-every`), the connection's cuts start from it.
    public func setStart(_ start: WallClockTime, latency: CaptureLatencyStamp? = nil) {
        origin.withLock {
            $0.start = start
            $0.latency = latency
        }
        if let plan = spec.clock {
            clockCuts.withLock { $0 = WallClockCuts(boundaries: plan.boundaries, sampleRate: spec.inputRate, start: start) }
        }
    }

    /// The files made so far (thread-safe).
    public var files: FileTally { tally.withLock { $0 } }

    /// The file open now (thread-safe to read as a display figure: the writer may replace it).
    public var currentPath: String? { tally.withLock { $0.last } }

    // MARK: Cuts from outside

    /// Asks for the next file to begin at frame `streamFrame` of this connection's stream
    /// (any thread). A cut outside every segment (armed, no take open) is dropped.
    public func requestCut(atStreamFrame streamFrame: Int64) {
        cutRequest.store(streamFrame, ordering: .relaxed)
    }

    // MARK: Segments (writer thread)

    /// Starts a segment at frame `streamFrame` of this connection's stream.
    func beginSegment(atStreamFrame streamFrame: Int64) {
        segmentStreamFrame = streamFrame
        segmentFileFrames = 0
        fileStartInSegment = 0
        stretchOrigin = nil
        // A segment's first piece has no piece before it to overlap.
        history?.clear()
        lastPieceFrames = 0
    }

    /// Ends the segment: its file is closed; the next segment begins a new file. False (and
    /// `failure`) if closing failed.
    @discardableResult
    func endSegment() -> Bool { close() }

    /// Opens take `openTake ?? nextTake` (armed): a new take, or the next piece of the take
    /// a reconnect cut. Its file is opened at its first frame.
    func startTake() -> Int {
        if let openTake { return openTake }
        let number = passOver(from: nextTake) { spec.naming.path(take: $0, piece: 1) }
        nextTake = number + 1
        openTake = number
        nextPiece = 1
        // The first take keeps the family made with the files; each later one has its own.
        takesStarted += 1
        if takesStarted > 1 { familyUID = IXMLDocument.makeUID() }
        return number
    }

    /// Closes the open take's last file and forgets the take; false if closing failed.
    @discardableResult
    package func endTake() -> Bool {
        let ok = close()
        openTake = nil
        return ok
    }

    // MARK: Writing (writer thread)

    /// Writes `count` interleaved frames at the file rate into the segment, starting new
    /// files where a split or a cut falls; false (and `failure`) on a write error or a
    /// full 4 GB container.
    public func write(_ frames: UnsafePointer<Float>, count: Int) -> Bool {
        var done = 0
        while done < count {
            if current == nil, let failure = openNext() { return fail(failure) }
            let file = current!
            if let split = spec.splitFrames, framesInPiece == split {
                guard cut() else { return false }
                continue
            }
            let outside = pendingCut()
            let clock = pendingClockCut()
            if outside == 0 || clock == 0 {
                if framesInPiece > 0 { guard cut() else { return false } }
                continue
            }
            var n = count - done
            if let split = spec.splitFrames { n = min(n, Int(split - framesInPiece)) }
            if let outside { n = min(n, Int(outside)) }
            if let clock { n = min(n, Int(clock)) }
            if let limit = spec.maximumFramesPerFile, leadIn + framesInPiece + Int64(n) > limit {
                return fail("\(file.path): a \(spec.format.name) file ends at 4 GB; stopped (use .wav, which becomes RF64, or cut it into pieces)")
            }
            if currentRecord == nil { begin(file, leadIn: 0) }
            let source = frames + done * spec.channels
            let wrote = file.write(source, count: n)
            guard feedOverlap(source, count: wrote) else { return false }
            framesInPiece += Int64(wrote)
            framesWritten += Int64(wrote)
            segmentFileFrames += Int64(wrote)
            done += wrote
            if wrote < n { return fail("\(file.path): write failed: \(file.lastError)") }
            file.keepSpaceReserved()
        }
        return true
    }

    /// Cuts here: the current file closes (or, with `--overlap`, goes on as the tail) and
    /// the next opens at the next frame written.
    private func cut() -> Bool {
        history == nil ? close() : retireToTail()
    }

    /// Frames of the segment left before a cut asked for from outside; 0 to cut now, nil
    /// for none. A cut before the current file's first frame is cleared.
    private func pendingCut() -> Int64? {
        let cut = cutRequest.load(ordering: .relaxed)
        guard cut >= 0 else { return nil }
        let at = spec.fileFrames(fromInputFrames: cut - segmentStreamFrame)
        if at > segmentFileFrames { return at - segmentFileFrames }
        _ = cutRequest.compareExchange(expected: cut, desired: -1, ordering: .relaxed)
        // At or before the current file's first frame (or before this segment: armed, no
        // take open) there is nothing to cut.
        if at <= fileStartInSegment { return nil }
        // Past it, the writer cuts where it is. The frame was read when the request came in
        // (an OSC datagram's arrival); a main thread that handled it late, on a loaded
        // machine, may find the writer already past it: the cut is then later, and said.
        if at < segmentFileFrames {
            let asked = origin.withLock { $0.timelineBase } + cut
            let actual = timelineFrame(segmentFileFrame: segmentFileFrames)
            messages?.post("split: frame \(asked) was already written when the cut came to the writer; it cut at frame \(actual) instead, \(actual - asked) frames later")
        }
        return 0
    }

    /// Brings the current file's header up to date (not before its first frame: the `bext`
    /// chunk must come first; never for Ogg, see `SoundFormat.refreshesHeader`), and asks the
    /// companion (`--midi`) to bring its files up to date, whatever the format.
    public func updateHeader() {
        companion?.refresh()
        guard spec.format.refreshesHeader else { return }
        if currentRecord != nil { current?.updateHeader() }
        tail?.file.updateHeader()
    }

    /// Closes the current file, if one is open, and tells the observer; false (and
    /// `failure`) if closing it failed. Safe to call twice.
    @discardableResult
    public func close() -> Bool {
        guard closeTail() else { return false }
        guard let file = current else { return true }
        guard var record = currentRecord else {
            // Opened but never written (a run that ended before its first frame).
            current = nil
            return file.close().map { fail("\(file.path): closing failed: \($0)") } ?? true
        }
        let error = file.close()
        current = nil
        currentRecord = nil
        record.frames = leadIn + framesInPiece
        record.sharedFrames = leadIn
        record.endFrame = timelineFrame(segmentFileFrame: segmentFileFrames)
        record.ok = error == nil
        if let startReading, case let .reading(end)? = timecodeReading(atSegmentFileFrame: segmentFileFrames) {
            record.endTimecode = end.label.text
            record.timecodeJumped = end.stretch != startReading.stretch
            tally.withLock {
                $0.lastTimecode = end.label.text
                if record.timecodeJumped { $0.filesSpanningJumps += 1 }
            }
        }
        startReading = nil
        lastPieceFrames = framesInPiece
        framesInPiece = 0
        leadIn = 0
        fileStartInSegment = segmentFileFrames
        record.companionTicket = companion?.fileEnded(record)
        observer?.fileClosed(record)
        if let error { return fail("\(file.path): closing failed: \(error)") }
        return true
    }

    /// The timeline frame of a file frame of the segment.
    func timelineFrame(segmentFileFrame: Int64) -> Int64 {
        origin.withLock { $0.timelineBase } + segmentStreamFrame + spec.inputFrames(fromFileFrames: segmentFileFrame)
    }

    /// Before a file's first frame (its lead-in's, with `--overlap`): its `bext` chunk, and
    /// the observer told.
    func begin(_ file: SoundFile, leadIn: Int64) {
        let (start, latency) = origin.withLock { ($0.start, $0.latency) }
        let firstInSegment = segmentFileFrames - leadIn
        let first = timelineFrame(segmentFileFrame: firstInSegment)
        var record = RecordedFile(path: file.path, take: currentNumbers.take, piece: currentNumbers.piece,
                                  firstFrame: first, endFrame: first, frames: 0, ok: true)
        let (stamp, missing) = timecodeStamp(firstInSegment: firstInSegment)
        record.startTimecode = stamp?.timecode?.text
        record.timecodeMissing = missing
        noteMissing(missing, path: file.path)
        if let text = record.startTimecode { tally.withLock { if $0.firstTimecode == nil { $0.firstTimecode = text } } }
        currentRecord = record
        companion?.fileBegan(record)
        observer?.fileStarted(record)
        guard spec.format.carriesBroadcastInfo else { return }
        let offset = spec.fileFrames(fromInputFrames: segmentStreamFrame) + firstInSegment
        // Named by take (`%T`), a take's number is its name's; else the count from `--take`.
        let take = spec.naming.takeNames != nil ? spec.takes ? currentNumbers.take : spec.naming.unarmedTake
            : spec.takes ? spec.production.take(ordinal: takeOrdinal) ?? currentNumbers.take : spec.production.firstTake
        let bext = BroadcastInfo(start: start ?? WallClockTime.now(), offset: offset, sampleRate: spec.fileRate,
                                 latency: latency, timecode: stamp, lines: spec.production.descriptionLines(take: take))
        file.setBroadcastInfo(bext)
        let names = spec.trackNames.count == spec.channels ? spec.trackNames : (1...max(1, spec.channels)).map { "in_\($0)" }
        let ixml = IXMLDocument(production: spec.production, take: take,
                                timestamp: stamp ?? FileTimestamp(samplesSinceMidnight: bext.timeReference, sampleRate: spec.fileRate,
                                                                  timecode: nil),
                                fileUID: IXMLDocument.makeUID(), familyUID: familyUID, piece: currentNumbers.piece,
                                trackNames: names, bitDepth: spec.depth?.quantizedBits ?? (spec.depth == .int32 ? 32 : nil))
        file.setChunk(id: IXMLDocument.chunkID, bytes: Array(ixml.xml.utf8))
    }

    /// The timestamp of the file whose first frame is `firstInSegment` (file frames into the
    /// segment), from the timecode (`--ltc`); nil without one, or, with why, when the code
    /// cannot stamp it (the wall clock does).
    /// Within one stretch of code, a file's time is the stretch's first file's plus the file
    /// frames between them, so that each piece starts exactly where the last one ended, even
    /// if the source's clock drifts from the server's (the reader follows it).
    private func timecodeStamp(firstInSegment: Int64) -> (FileTimestamp?, TimecodeMissing?) {
        let reading: TimecodeReading
        switch timecodeReading(atSegmentFileFrame: firstInSegment) {
        case nil: return (nil, nil)
        case .noCode?: return (nil, .noCode)
        case .late?: return (nil, .readerBehind)
        case let .reading(found)?: reading = found
        }
        startReading = reading
        var samples: Int64
        if let origin = stretchOrigin, origin.stretch == reading.stretch {
            samples = origin.samples + (firstInSegment - origin.fileFrame)
        } else {
            samples = Int64((reading.samples * Double(spec.fileRate) / Double(spec.inputRate)).rounded())
            stretchOrigin = (reading.stretch, samples, firstInSegment)
        }
        let day = Int64(86_400) * Int64(spec.fileRate)
        samples = ((samples % day) + day) % day
        return (FileTimestamp(samplesSinceMidnight: UInt64(samples), sampleRate: spec.fileRate, timecode: reading.label), nil)
    }

    /// The timecode at a file frame of the segment, nil without one; waits no longer than
    /// the writer can afford (`timecodeWaitBudget`).
    private func timecodeReading(atSegmentFileFrame frame: Int64) -> TimecodeAnswer? {
        guard let source = timecode.withLock({ $0 }) else { return nil }
        return source.reading(atStreamFrame: segmentStreamFrame + spec.inputFrames(fromFileFrames: frame),
                              waitingAtMost: timecodeWaitBudget?() ?? 0)
    }

    /// Counts a file that took the wall clock's time, and says so when the reason is new
    /// (the first such file, or the first after a change): the rest are in the summary and
    /// in each file's `timecode_missing` event.
    private func noteMissing(_ missing: TimecodeMissing?, path: String) {
        defer { lastMissing = missing }
        guard let missing else { return }
        tally.withLock {
            switch missing {
            case .noCode: $0.filesWithoutCode += 1
            case .readerBehind: $0.filesBeforeReader += 1
            }
        }
        guard missing != lastMissing else { return }
        switch missing {
        case .noCode:
            messages?.post("timecode: no code was locked at the first frame of \(path); its time is the wall clock's (iXML says free run), and so is that of the files after it until the code locks")
        case .readerBehind:
            messages?.post("timecode: the LTC reader had not read as far as the first frame of \(path) in the time the audio could spare (it is behind or stalled); its time is the wall clock's (iXML says free run), and so is that of the files after it until it catches up")
        }
    }

    /// Opens the next file as `current`, with its lead-in written when `--overlap` asks;
    /// what went wrong, if anything did.
    private func openNext() -> String? {
        do throws(SoundFileError) { current = try open() } catch { return error.message }
        // The lead-in: the last frames of the piece before in this segment, at most `--overlap`.
        guard let history else { return nil }
        let lead = min(Int64(history.count), spec.clock?.overlapFrames ?? 0, lastPieceFrames)
        guard lead > 0, let file = current else { return nil }
        begin(file, leadIn: lead)
        var ok = true
        history.withLast(Int(lead)) { frames, count in
            if ok { ok = file.write(frames, count: count) == count }
        }
        guard ok else { return "\(file.path): write failed: \(file.lastError)" }
        leadIn = lead
        return nil
    }

    /// Names a numbered run passes over when they appear during it, at most, before it gives up.
    static let maximumSkips = 1000

    /// Creates the next file: the next piece (of the open take, when armed), named by its
    /// numbers or, on the wall clock, by its time. A numbered name that something else has
    /// taken meanwhile (a file, a link) is passed over, and said: the recording goes on in the
    /// next number, and nothing is written through or over it. A name on the wall clock that
    /// exists gets a suffix (`ExclusiveFile`).
    private func open() throws(SoundFileError) -> SoundFile {
        let take = openTake ?? 0
        // A take's own number was checked as it started (`startTake`); pieces are checked here.
        if spec.clock == nil, spec.naming.scheme == .pieces || spec.naming.scheme == .takePieces {
            nextPiece = passOver(from: nextPiece) { spec.naming.path(take: take, piece: $0) }
        }
        let piece = nextPiece
        let file: SoundFile
        if spec.clock != nil || keeper != nil {
            // Made under the recording's folder, so that retention can list it from its own
            // descriptor (with the folders made for it).
            let (root, relative) = spec.clock != nil ? clockName() : (FileNames.directory(spec.naming.base),
                                                                      FileNames.lastComponent(spec.naming.path(take: take, piece: piece)))
            let made = try makeOrFallBack(under: root, relative: relative)
            keeper?.made(made)
            file = try SoundFile(writingTo: made, format: spec.formatWord, channels: spec.channels,
                                 sampleRate: spec.fileRate, rf64AutoDowngrade: spec.format.downgradesToWAV)
        } else {
            file = try SoundFile(writingTo: spec.naming.path(take: take, piece: piece), format: spec.formatWord,
                                 channels: spec.channels, sampleRate: spec.fileRate,
                                 rf64AutoDowngrade: spec.format.downgradesToWAV, policy: spec.creationPolicy)
        }
        nextPiece += 1
        // Separate inputs, not a 5.1 or 7.1 mix: see `SeparateInputsLayout`.
        if let map = SeparateInputsLayout.channelMap(channels: spec.channels, format: spec.formatWord) { file.setChannelMap(map) }
        if spec.format.isLossy { try file.applyCodecSettings(spec.compression) }
        tally.withLock { $0.add(file.path) }
        framesInPiece = 0
        fileStartInSegment = segmentFileFrames
        currentNumbers = (take, piece)
        currentRecord = nil
        return file
    }

    /// Makes `relative` under `root`; if that name cannot be had (its 999 suffixes taken, too
    /// long once the pattern is filled in, a folder on the way that is a file), the audio
    /// goes to a name that can be neither taken nor too long, said: `jackwave-SECONDS-PID-N`
    /// with the pattern's extension, in `root` itself, which the run checked at its start.
    /// Only if that fails too does the open fail (a full disk, the folder gone).
    private func makeOrFallBack(under root: String, relative: String) throws(SoundFileError) -> ExclusiveFile {
        do throws(SoundFileError) {
            return try ExclusiveFile.create(under: root, relative: relative)
        } catch {
            let ext = FileNames.stemAndExtension(FileNames.lastComponent(relative)).ext
            let fallback = "jackwave-\(WallClockTime.now().seconds)-\(getpid())-\(nextPiece)\(ext.utf8.count <= 16 ? ext : "")"
            let made = try ExclusiveFile.create(under: root, relative: fallback)
            messages?.post("\(error.message): recording into \(made.path) instead")
            return made
        }
    }

    /// The first number from `first` whose name (`name(n)`) nothing holds, each one passed
    /// over said; `first` itself when it is free (or after `maximumSkips`: the open then fails).
    private func passOver(from first: Int, name: (Int) -> String) -> Int {
        var number = first
        var info = stat()
        while lstat(name(number), &info) == 0 && number - first < Self.maximumSkips {
            messages?.post("\(name(number)) exists (this run did not write it): going on in \(FileNames.lastComponent(name(number + 1)))")
            number += 1
        }
        return number
    }

    func fail(_ message: String) -> Bool {
        failure = message
        return false
    }
}
