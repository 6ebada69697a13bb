import CSndfile
import Glibc

/// An open sound file: the one place jackwave calls libsndfile, each method wrapping the
/// `sf_*` function its doc line names. Frames are interleaved 32-bit floats, as JACK delivers
/// them. A file being written is opened by jackwave and handed over as a descriptor, so
/// disk space can be reserved ahead of its end (`keepSpaceReserved`).
public final class SoundFile {
    var handle: OpaquePointer?
    /// The descriptor of a file being written (nil when reading); closed by `close` after
    /// `sf_close`, once the blocks reserved past the end are given back.
    private var descriptor: FileDescriptor?
    private var reservation = SpaceReservation()
    /// Where an encoder without a file writes (`init(encodingInto:)`): kept alive as long as
    /// libsndfile may call into it, which is until `close`.
    private var virtualSink: EncodedBytes?
    /// Channels per frame.
    public let channels: Int
    /// Frames per second.
    public let sampleRate: Int
    /// Frames in the file when opened for reading (0 when writing).
    public let frames: Int64
    /// libsndfile's `SF_FORMAT_*` word (major format | subtype).
    public let format: Int32
    /// The path it was opened with.
    public let path: String

    /// Opens `path` for reading through `ReadableFile` (a plain file only, never waited on) and
    /// `sf_open_fd`. The header's counts are checked against the file's size
    /// (`SoundFileHeaderCheck`) before anything is allocated by them.
    public init(readingFrom path: String) throws(SoundFileError) {
        let opened = try ReadableFile.open(path)
        var info = SF_INFO()
        guard let h = sf_open_fd(opened.fd, Int32(SFM_READ), &info, Int32(SF_TRUE)) else {
            Glibc.close(opened.fd)
            throw SoundFileError(path: path, reason: String(cString: sf_strerror(nil)))
        }
        if let problem = SoundFileHeaderCheck.problem(channels: Int(info.channels), frames: Int64(info.frames),
                                                      sampleRate: Int(info.samplerate), format: info.format,
                                                      fileBytes: opened.size) {
            sf_close(h)
            throw SoundFileError(path: path, reason: problem)
        }
        handle = h
        channels = Int(info.channels)
        sampleRate = Int(info.samplerate)
        frames = Int64(info.frames)
        format = info.format
        self.path = path
    }

    /// Creates `path` for writing through `CreatedFile.open` (never through a link; locked until
    /// `close`; `policy` says whether a plain file there may be replaced), after `canWrite`.
    /// Conversion to integers clips at full scale instead of wrapping, and RF64 stays plain WAV
    /// under 4 GB unless `rf64AutoDowngrade` is false.
    public convenience init(writingTo path: String, format: Int32, channels: Int, sampleRate: Int,
                            rf64AutoDowngrade: Bool = true, policy: CreatedFile.Policy = .new) throws(SoundFileError) {
        guard Self.canWrite(format: format, channels: channels, sampleRate: sampleRate) else {
            throw SoundFileError(path: path, reason: "libsndfile cannot write this format with \(channels) channels at \(sampleRate) Hz")
        }
        try self.init(writingTo: FileDescriptor.create(path, policy: policy), path: path, format: format, channels: channels,
                      sampleRate: sampleRate, rf64AutoDowngrade: rf64AutoDowngrade)
    }

    /// Writes into a descriptor jackwave created (`CreatedFile`), which it owns from now on
    /// (closed by `close`, or here if libsndfile refuses it).
    init(writingTo fd: FileDescriptor, path: String, format: Int32, channels: Int, sampleRate: Int,
         rf64AutoDowngrade: Bool) throws(SoundFileError) {
        var info = SF_INFO()
        info.channels = Int32(channels)
        info.samplerate = Int32(sampleRate)
        info.format = format
        guard let h = sf_open_fd(fd.rawValue, Int32(SFM_WRITE), &info, Int32(SF_FALSE)) else {
            _ = fd.close()
            throw SoundFileError(path: path, reason: String(cString: sf_strerror(nil)))
        }
        handle = h
        descriptor = fd
        self.channels = channels
        self.sampleRate = sampleRate
        self.frames = 0
        self.format = format
        self.path = path
        _ = sf_command(h, Int32(SFC_SET_CLIPPING), nil, Int32(SF_TRUE))
        if format & Int32(SF_FORMAT_TYPEMASK) == Int32(SF_FORMAT_RF64) && rf64AutoDowngrade {
            _ = sf_command(h, Int32(SFC_RF64_AUTO_DOWNGRADE), nil, Int32(SF_TRUE))
        }
    }

    /// Writes into a file `ExclusiveFile.create` made, taking over its descriptor (closed even
    /// if opening fails).
    public convenience init(writingTo claimed: ExclusiveFile, format: Int32, channels: Int, sampleRate: Int,
                            rf64AutoDowngrade: Bool = true) throws(SoundFileError) {
        let fd = FileDescriptor(rawValue: claimed.descriptor)
        guard Self.canWrite(format: format, channels: channels, sampleRate: sampleRate) else {
            _ = fd.close()
            throw SoundFileError(path: claimed.path, reason: "libsndfile cannot write this format with \(channels) channels at \(sampleRate) Hz")
        }
        try self.init(writingTo: fd, path: claimed.path, format: format, channels: channels, sampleRate: sampleRate,
                      rf64AutoDowngrade: rf64AutoDowngrade)
    }

    /// Encodes into `sink` (a live stream's encoder) through `sf_open_virtual`. For formats
    /// written front to back (Ogg, MP3): what libsndfile rewrites at close (MP3's Xing frame) is
    /// dropped, as those bytes have gone already.
    public init(encodingInto sink: EncodedBytes, format: Int32, channels: Int, sampleRate: Int) throws(SoundFileError) {
        let label = "(stream)"
        guard Self.canWrite(format: format, channels: channels, sampleRate: sampleRate) else {
            throw SoundFileError(path: label, reason: "libsndfile cannot write this format with \(channels) channels at \(sampleRate) Hz")
        }
        var info = SF_INFO()
        info.channels = Int32(channels)
        info.samplerate = Int32(sampleRate)
        info.format = format
        var io = EncodedBytes.virtualIO
        guard let h = sf_open_virtual(&io, Int32(SFM_WRITE), &info, Unmanaged.passUnretained(sink).toOpaque()) else {
            throw SoundFileError(path: label, reason: String(cString: sf_strerror(nil)))
        }
        handle = h
        virtualSink = sink
        self.channels = channels
        self.sampleRate = sampleRate
        self.frames = 0
        self.format = format
        self.path = label
        _ = sf_command(h, Int32(SFC_SET_CLIPPING), nil, Int32(SF_TRUE))
    }

    /// Frames to read at once into a buffer of at most `maximumSamples` floats (4 MiB), up to
    /// `wanted`: a 1024-channel file gets short reads, not a 256 MB buffer.
    public func framesPerRead(upTo wanted: Int, maximumSamples: Int = 1 << 20) -> Int {
        Swift.max(1, Swift.min(wanted, maximumSamples / Swift.max(1, channels)))
    }

    /// `sf_version_string`: the libsndfile this process runs with ("libsndfile-1.2.2").
    public static var libraryVersion: String { String(cString: sf_version_string()) }

    /// `sf_format_check`: whether this machine's libsndfile writes `format` with these
    /// channels and rate.
    public static func canWrite(format: Int32, channels: Int, sampleRate: Int) -> Bool {
        var info = SF_INFO()
        info.channels = Int32(channels)
        info.samplerate = Int32(sampleRate)
        info.format = format
        return sf_format_check(&info) != 0
    }

    /// The major formats and subtypes this libsndfile was built with. `sf_format_check` cannot
    /// say it, as it judges only the combination: a build without LAME still passes MP3.
    public static let builtFormats: (majors: Set<Int32>, subtypes: Set<Int32>) = {
        func list(count: Int32, entry: Int32) -> Set<Int32> {
            var n: Int32 = 0
            _ = sf_command(nil, count, &n, Int32(MemoryLayout<Int32>.size))
            return Set((0..<max(0, n)).compactMap { i in
                var info = SF_FORMAT_INFO()
                info.format = i
                return sf_command(nil, entry, &info, Int32(MemoryLayout<SF_FORMAT_INFO>.size)) == 0 ? info.format : nil
            })
        }
        return (list(count: Int32(SFC_GET_FORMAT_MAJOR_COUNT), entry: Int32(SFC_GET_FORMAT_MAJOR)),
                list(count: Int32(SFC_GET_FORMAT_SUBTYPE_COUNT), entry: Int32(SFC_GET_FORMAT_SUBTYPE)))
    }()

    /// `sf_command(SFC_SET_BROADCAST_INFO)`: stores a `bext` chunk. Only before the first
    /// write, and only in formats that carry one (WAV, WAVEX, RF64); false if refused.
    @discardableResult
    public func setBroadcastInfo(_ info: BroadcastInfo) -> Bool {
        guard let handle else { return false }
        var raw = info.raw
        return sf_command(handle, Int32(SFC_SET_BROADCAST_INFO), &raw, Int32(MemoryLayout<SF_BROADCAST_INFO>.size)) == Int32(SF_TRUE)
    }

    /// `sf_command(SFC_GET_BROADCAST_INFO)`: the file's `bext` chunk, if it has one.
    public var broadcastInfo: BroadcastInfo? {
        guard let handle else { return nil }
        var raw = SF_BROADCAST_INFO()
        guard sf_command(handle, Int32(SFC_GET_BROADCAST_INFO), &raw, Int32(MemoryLayout<SF_BROADCAST_INFO>.size)) == Int32(SF_TRUE) else {
            return nil
        }
        return BroadcastInfo(raw: raw)
    }

    deinit { close() }

    /// The most bytes handed to libsndfile, and so to one `write`, at a time. One `write` of
    /// megabytes to a journalling file system held up the JACK server's realtime threads: at
    /// 1024 channels jackd logged about 4000 xruns in 20 s, against about 100 with writes of
    /// at most 256 KiB (BENCHMARKS.md, "Many channels, memory, and a long run").
    static let writeBytes = 256 << 10

    /// `sf_writef_float`: writes `count` interleaved frames, `writeBytes` at a time; returns
    /// the frames written.
    public func write(_ frames: UnsafePointer<Float>, count: Int) -> Int {
        guard let handle else { return 0 }
        let step = max(1, Self.writeBytes / max(1, channels * MemoryLayout<Float>.size))
        var done = 0
        while done < count {
            let n = min(step, count - done)
            let wrote = Int(sf_writef_float(handle, frames + done * channels, sf_count_t(n)))
            done += wrote
            if wrote < n { break }
        }
        return done
    }

    /// Keeps disk space reserved ahead of the end of a file being written (`SpaceReservation`).
    /// Call after writes: a syscall only every half chunk, an `fstat` otherwise.
    public func keepSpaceReserved() {
        guard let descriptor, reservation.isActive, let size = descriptor.size,
              let range = reservation.rangeToReserve(fileSize: size) else { return }
        if !descriptor.reserve(range) { reservation.refused() }
    }

    /// `sf_readf_float`: reads up to `count` interleaved frames; returns frames read.
    public func read(into frames: UnsafeMutablePointer<Float>, count: Int) -> Int {
        guard let handle else { return 0 }
        return Int(sf_readf_float(handle, frames, sf_count_t(count)))
    }

    /// The first sample that is not a finite number (NaN or ±infinity), read from the start
    /// in blocks, with its frame; nil if there is none. Only float and double files can hold
    /// one: any other answers nil at once. Leaves the file at its start.
    public func firstNonFiniteSample() -> (frame: Int64, value: Float)? {
        let subtype = format & Int32(SF_FORMAT_SUBMASK)
        guard subtype == Int32(SF_FORMAT_FLOAT) || subtype == Int32(SF_FORMAT_DOUBLE), channels > 0 else { return nil }
        defer { seek(toFrame: 0) }
        let block = 16384
        var buffer = [Float](repeating: 0, count: block * channels)
        var frame: Int64 = 0
        while true {
            let got = buffer.withUnsafeMutableBufferPointer { read(into: $0.baseAddress!, count: block) }
            if got <= 0 { return nil }
            if let i = buffer[..<(got * channels)].firstIndex(where: { !$0.isFinite }) {
                return (frame + Int64(i / channels), buffer[i])
            }
            frame += Int64(got)
        }
    }

    /// `sf_seek` from the start, in frames.
    @discardableResult
    public func seek(toFrame frame: Int64) -> Bool {
        guard let handle else { return false }
        return sf_seek(handle, sf_count_t(frame), SEEK_SET) >= 0
    }

    /// `sf_command(SFC_UPDATE_HEADER_NOW)`: makes the header describe every frame written
    /// so far, so that a reader after a crash sees them.
    public func updateHeader() {
        guard let handle else { return }
        _ = sf_command(handle, Int32(SFC_UPDATE_HEADER_NOW), nil, 0)
    }

    /// `sf_command(SFC_SET_CHANNEL_MAP_INFO)`: states each channel's position
    /// (`SF_CHANNEL_MAP_*`, one per channel); false if the format cannot say it. Before the
    /// first write.
    @discardableResult
    public func setChannelMap(_ map: [Int32]) -> Bool {
        guard let handle, map.count == channels else { return false }
        var values = map
        return values.withUnsafeMutableBytes {
            sf_command(handle, Int32(SFC_SET_CHANNEL_MAP_INFO), $0.baseAddress, Int32($0.count))
        } == Int32(SF_TRUE)
    }

    /// `sf_command(SFC_GET_CHANNEL_MAP_INFO)`: where the file says each channel is meant to
    /// be heard (a WAVE_FORMAT_EXTENSIBLE channel mask, a CAF layout); nil when it says
    /// nothing, or leaves any channel unnamed.
    public var channelPositions: [ChannelPosition]? {
        guard let handle, channels > 0 else { return nil }
        var map = [Int32](repeating: 0, count: channels)
        let known = map.withUnsafeMutableBytes {
            sf_command(handle, Int32(SFC_GET_CHANNEL_MAP_INFO), $0.baseAddress, Int32($0.count))
        }
        guard known == Int32(SF_TRUE) else { return nil }
        let positions = map.compactMap(ChannelPosition.init(channelMapValue:))
        return positions.count == channels ? positions : nil
    }

    /// `sf_strerror` for this file: the last error libsndfile saw.
    public var lastError: String {
        guard let handle else { return "file is closed" }
        return String(cString: sf_strerror(handle))
    }

    /// `sf_close`: flushes, finalizes the header and closes; returns why if that failed (a full
    /// disk can hit the last write here). A written file then gives back its reserved blocks and
    /// closes its descriptor, whose failure (a deferred network write error, a quota) is
    /// returned too, as libsndfile no longer sees it. Safe to call twice.
    @discardableResult
    public func close() -> String? {
        guard let handle else { return nil }
        self.handle = nil
        let result = sf_close(handle)
        virtualSink = nil
        var closeError: Int32 = 0
        if let descriptor {
            descriptor.releaseReservedBlocks()
            closeError = descriptor.close()
            self.descriptor = nil
        }
        if result != 0 { return String(cString: sf_error_number(result)) }
        return closeError == 0 ? nil : String(cString: strerror(closeError))
    }
}
