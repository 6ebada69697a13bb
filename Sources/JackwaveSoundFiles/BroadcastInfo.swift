import CSndfile

/// A Broadcast Wave `bext` chunk (EBU Tech 3285): who wrote the file and when its first
/// frame was, to the frame. What jackwave stores in WAV, WAVEX and RF64 files.
public struct BroadcastInfo: Sendable, Equatable {
    /// Free text (256 bytes): jackwave puts the first frame's time to the millisecond here,
    /// since `originationTime` has whole seconds only.
    public var description: String
    /// "jackwave".
    public var originator: String
    public var originatorReference: String
    /// Local date of the first frame, `yyyy-mm-dd`.
    public var originationDate: String
    /// Local time of the first frame, `hh:mm:ss`.
    public var originationTime: String
    /// The first frame's position in frames since local midnight, at the file's rate.
    public var timeReference: UInt64
    /// `bext` version: 2, the one libsndfile writes whatever it is given (UMID left empty,
    /// loudness fields "not used": 0x7FFF, as EBU Tech 3285 v2 says).
    public var version: Int16

    /// The chunk for a file whose first frame is frame `offset` of a run whose frame 0 arrived at
    /// `start`, so a later piece of a split recording continues the first one's time reference.
    /// With a `latency`, the times are the first sample's capture (`start` less the latency),
    /// and the description gives both, or why nothing was subtracted.
    ///
    /// With a `timecode` stamp (`--ltc`), the time reference is the timecode's instead, and
    /// the description says so. `lines` (the production fields, `sSCENE=12A`) come first,
    /// one per line, as field recorders write them.
    public init(start: WallClockTime, offset: Int64, sampleRate: Int, latency: CaptureLatencyStamp? = nil,
                timecode: FileTimestamp? = nil, lines: [String] = []) {
        let first = start.adding(frames: offset, sampleRate: sampleRate)
        let captured = latency.map { start.adding(frames: -Int64($0.frames), sampleRate: $0.sampleRate) } ?? start
        let capturedFirst = captured.adding(frames: offset, sampleRate: sampleRate)
        var text = "jackwave: first frame at \(first.iso8601)"
        if let latency {
            text += latency.frames > 0 ? "; captured at \(capturedFirst.iso8601) (\(latency.note))" : "; \(latency.note)"
        }
        if let label = timecode?.timecode { text += "; timecode \(label.text) at \(label.rate)\(label.dropFrame ? " DF" : "") from LTC" }
        description = Self.cut((lines + [text]).joined(separator: "\r\n"), toBytes: Self.descriptionBytes)
        originator = "jackwave"
        originatorReference = ""
        originationDate = capturedFirst.localDate
        originationTime = capturedFirst.localTime
        let zero = UInt64((captured.secondsSinceLocalMidnight * Double(sampleRate)).rounded())
        timeReference = timecode?.samplesSinceMidnight ?? zero + UInt64(offset)
        version = 2
    }

    /// The description field's size (EBU Tech 3285): 256 bytes, no terminator needed.
    static let descriptionBytes = 256

    /// `text` cut to at most `bytes` UTF-8 bytes on a character boundary, with "…" when cut.
    static func cut(_ text: String, toBytes bytes: Int) -> String {
        guard text.utf8.count > bytes else { return text }
        var kept = ""
        for c in text {
            if kept.utf8.count + String(c).utf8.count + "…".utf8.count > bytes { break }
            kept.append(c)
        }
        return kept + "…"
    }

    /// EBU Tech 3285 v2's value for a loudness field that was not measured.
    static let loudnessNotUsed: Int16 = 0x7FFF

    /// The fields of libsndfile's struct.
    init(raw: SF_BROADCAST_INFO) {
        description = Self.text(raw.description)
        originator = Self.text(raw.originator)
        originatorReference = Self.text(raw.originator_reference)
        originationDate = Self.text(raw.origination_date)
        originationTime = Self.text(raw.origination_time)
        timeReference = UInt64(raw.time_reference_high) << 32 | UInt64(raw.time_reference_low)
        version = raw.version
    }

    /// libsndfile's struct, strings cut to their fields' sizes.
    var raw: SF_BROADCAST_INFO {
        var r = SF_BROADCAST_INFO()
        Self.store(description, in: &r.description)
        Self.store(originator, in: &r.originator)
        Self.store(originatorReference, in: &r.originator_reference)
        Self.store(originationDate, in: &r.origination_date)
        Self.store(originationTime, in: &r.origination_time)
        r.time_reference_low = UInt32(truncatingIfNeeded: timeReference)
        r.time_reference_high = UInt32(truncatingIfNeeded: timeReference >> 32)
        r.version = version
        for field in [\SF_BROADCAST_INFO.loudness_value, \.loudness_range, \.max_true_peak_level,
                      \.max_momentary_loudness, \.max_shortterm_loudness] {
            r[keyPath: field] = Self.loudnessNotUsed
        }
        return r
    }

    /// Copies UTF-8 bytes into a fixed C character array (a tuple), NUL-padded; a field
    /// filled to the brim has no terminator, as the date and time fields never do.
    private static func store<T>(_ text: String, in field: inout T) {
        withUnsafeMutableBytes(of: &field) { bytes in
            bytes.initializeMemory(as: UInt8.self, repeating: 0)
            for (i, b) in text.utf8.prefix(bytes.count).enumerated() { bytes[i] = b }
        }
    }

    /// The text of a fixed C character array, up to its first NUL or its end.
    private static func text<T>(_ field: T) -> String {
        withUnsafeBytes(of: field) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}

/// What a file's `bext` says of the capture latency: the frames subtracted from the first
/// frame's arrival (at `sampleRate`, the server's), and a note for the description.
public struct CaptureLatencyStamp: Sendable, Equatable {
    public let frames: Int
    public let sampleRate: Int
    /// "capture latency 256 frames at 48000 Hz", or why nothing is subtracted.
    public let note: String

    public init(frames: Int, sampleRate: Int, note: String) {
        self.frames = frames
        self.sampleRate = sampleRate
        self.note = note
    }
}
