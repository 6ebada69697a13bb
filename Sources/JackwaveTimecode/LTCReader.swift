import CLTC
import Glibc

/// How the LTC input stands: nothing read yet, read, carried on over missing code, or lost.
public enum LTCLock: Sendable, Equatable {
    case searching
    /// The last frame read.
    case locked(Timecode)
    /// The code carried on (the flywheel) over `missing` frames of lost or garbled code.
    case freewheeling(Timecode, missing: Int)
    /// Missing for longer than `LTCReader.flywheelFrames`; the last frame read.
    case lost(last: Timecode)
}

/// What happened to the code, at a frame of the stream.
public enum LTCEvent: Sendable, Equatable {
    /// Locked: at first, or again after it was lost, going on with the count it had.
    case locked(Timecode, atStreamFrame: Int64)
    /// The code took another count (re-jammed, a new take on the source): a new segment.
    case jump(from: Timecode, to: Timecode, atStreamFrame: Int64)
    /// Missing for longer than the flywheel carries it.
    case lost(last: Timecode, atStreamFrame: Int64)
}

/// A stretch of continuous code: stream frame `anchorFrame` is `anchorSamples` samples since
/// midnight, and every frame of the stretch is as far from it as in the stream.
public struct TimecodeSegment: Sendable, Equatable {
    /// Its first stream frame; `Int64.min` for the first, which also holds every frame
    /// before the code was first read (the file that starts before it).
    public var startFrame: Int64
    public var anchorFrame: Int64
    public var anchorSamples: Double
    public var rate: TimecodeRate

    /// Samples since midnight at stream frame `frame`, not wrapped into one day.
    public func samples(atStreamFrame frame: Int64) -> Double { anchorSamples + Double(frame - anchorFrame) }
}

/// SMPTE linear timecode read from one input's samples, through libltc (wrapped here, once):
/// the rate found from the frames themselves, a flywheel over lost or garbled code, and the
/// stream's frames put in the day. Not thread-safe: one thread feeds it and asks it (the
/// caller locks, `TimecodeFollower`).
///
/// libltc reads 8-bit samples: code at −45 dBFS is below one step. An automatic gain brings
/// the code near full scale first, following its peak (fast up, slow down), never more than
/// `maximumGain`, so that the silence between takes stays silence rather than noise.
public final class LTCReader {
    /// Frames of missing code the count is carried over before the code counts as lost.
    public static let flywheelFrames = 10
    /// At most +70 dB: code at −45 dBFS comes to full scale with room to spare; hiss at
    /// −90 dBFS stays at −20.
    static let maximumGain: Float = 3162
    /// The gain's peak follower falls by half in 0.2 s: several frames of code, so that it
    /// does not pump within one.
    static let releaseSeconds = 0.2
    /// Frames whose offsets make an anchor: enough to average out libltc's sample of jitter
    /// in where a frame starts, few enough to follow a source clock that drifts.
    static let anchorFrames = 32

    public let sampleRate: Int
    private let decoder: OpaquePointer
    private var scratch: [Float]
    private var envelope: Float = 0
    private let release: Float

    public private(set) var lock: LTCLock = .searching
    public private(set) var rate: TimecodeRate?
    public private(set) var fedThrough: Int64 = 0
    public private(set) var segments: [TimecodeSegment] = []
    /// The last frame that agreed with the count: its label and its first stream frame.
    private var lastGood: (code: Timecode, start: Int64)?
    /// A frame that disagreed with the count: a garbled one, or the first of a jump, which
    /// the next frame confirms.
    private var candidate: (code: Timecode, start: Int64, rate: TimecodeRate)?
    /// The current segment's recent offsets (label's samples less its start), averaged.
    private var offsets: [Double] = []
    private var lostSaid = false

    /// The most segments kept: a year of re-jams every few minutes would otherwise grow.
    static let maximumSegments = 64

    public init(sampleRate: Int) {
        self.sampleRate = sampleRate
        // Audio frames per LTC frame, libltc's first guess; it follows the real one.
        decoder = ltc_decoder_create(Int32(sampleRate / 25), 32)
        scratch = [Float](repeating: 0, count: 4096)
        release = Float(pow(0.5, 1 / (Self.releaseSeconds * Double(sampleRate))))
    }

    deinit { ltc_decoder_free(decoder) }

    /// Feeds samples of the LTC input; `samples[0]` is stream frame `streamFrame`. A start
    /// past the last sample fed is a gap: its code is missing. Returns what happened.
    public func feed(_ samples: UnsafeBufferPointer<Float>, atStreamFrame streamFrame: Int64) -> [LTCEvent] {
        var events: [LTCEvent] = []
        if streamFrame != fedThrough && fedThrough > 0 {
            // Whatever the decoder held of a frame across the gap is not one frame.
            ltc_decoder_queue_flush(decoder)
        }
        var done = 0
        while done < samples.count {
            let n = min(scratch.count, samples.count - done)
            scratch.withUnsafeMutableBufferPointer { out in
                for i in 0..<n {
                    let x = samples[done + i]
                    envelope = max(abs(x), envelope * release)
                    let gain = min(Self.maximumGain, 0.9 / max(envelope, 1e-9))
                    out[i] = max(-1, min(1, x * gain))
                }
                ltc_decoder_write_float(decoder, out.baseAddress, n, ltc_off_t(streamFrame + Int64(done)))
            }
            done += n
            var frame = LTCFrameExt()
            while ltc_decoder_read(decoder, &frame) != 0 {
                take(frame, &events)
            }
        }
        fedThrough = streamFrame + Int64(samples.count)
        checkMissing(&events)
        return events
    }

    /// The segment holding stream frame `frame`: the last that starts at or before it.
    public func segment(atStreamFrame frame: Int64) -> TimecodeSegment? {
        segments.last { $0.startFrame <= frame } ?? segments.first
    }

    /// The label of the frame of code holding stream frame `frame`, nil before any lock.
    public func timecode(atStreamFrame frame: Int64) -> Timecode? {
        guard let segment = segment(atStreamFrame: frame) else { return nil }
        let perFrame = segment.rate.samplesPerFrame(sampleRate: sampleRate)
        return Timecode(framesSinceMidnight: Int((segment.samples(atStreamFrame: frame) / perFrame + 1e-6).rounded(.down)),
                        rate: segment.rate)
    }

    // MARK: Frames

    /// One decoded frame: it goes on with the count, starts the first segment with the frame
    /// after it, starts a new one (a jump) with the frame after it, or is garbled.
    private func take(_ frame: LTCFrameExt, _ events: inout [LTCEvent]) {
        guard frame.reverse == 0 else { return }
        var raw = frame
        var time = SMPTETimecode()
        ltc_frame_to_time(&time, &raw.ltc, 0)
        let duration = Double(frame.off_end - frame.off_start + 1)
        guard let frameRate = Self.rate(samplesPerFrame: duration, sampleRate: sampleRate, dropFrame: frame.ltc.dfbit != 0),
              let code = Timecode(hours: Int(time.hours), minutes: Int(time.mins), seconds: Int(time.secs),
                                  frames: Int(time.frame), rate: frameRate) else { return }
        let start = Int64(frame.off_start)
        if let current = segments.last, let good = lastGood, frameRate == current.rate,
           predictedIndex(current, at: start) == code.framesSinceMidnight {
            accept(code, start: start, in: current, after: good, &events)
            return
        }
        // Disagrees with the count (or there is none yet): a jump, or the first lock, once the
        // next frame follows it.
        if let first = candidate, first.rate == frameRate,
           (first.code.framesSinceMidnight + 1) % frameRate.framesPerDay == code.framesSinceMidnight {
            let startFrame = segments.isEmpty ? Int64.min : first.start
            let segment = TimecodeSegment(startFrame: startFrame, anchorFrame: first.start,
                                          anchorSamples: first.code.samplesSinceMidnight(sampleRate: sampleRate), rate: frameRate)
            if let previous = segments.last, let old = timecode(in: previous, at: first.start) {
                events.append(.jump(from: old, to: first.code, atStreamFrame: first.start))
            } else {
                events.append(.locked(first.code, atStreamFrame: first.start))
            }
            segments.append(segment)
            if segments.count > Self.maximumSegments { segments.removeFirst(segments.count - Self.maximumSegments) }
            rate = frameRate
            offsets = [first.code.samplesSinceMidnight(sampleRate: sampleRate) - Double(first.start)]
            candidate = nil
            lastGood = (first.code, first.start)
            accept(code, start: start, in: segment, after: (first.code, first.start), &events)
            return
        }
        candidate = (code, start, frameRate)
    }

    /// A frame that goes on with the count: the anchor follows it (averaged), the flywheel
    /// rests, and a lock lost is said to be regained.
    private func accept(_ code: Timecode, start: Int64, in segment: TimecodeSegment, after good: (code: Timecode, start: Int64),
                        _ events: inout [LTCEvent]) {
        if case .lost = lock { events.append(.locked(code, atStreamFrame: start)) }
        lostSaid = false
        candidate = nil
        lastGood = (code, start)
        lock = .locked(code)
        // The offset of a label's samples from its start, unwrapped across midnight.
        var offset = code.samplesSinceMidnight(sampleRate: sampleRate) - Double(start)
        let day = Double(86_400 * sampleRate)
        let expected = segment.anchorSamples - Double(segment.anchorFrame)
        offset += ((expected - offset) / day).rounded() * day
        offsets.append(offset)
        if offsets.count > Self.anchorFrames { offsets.removeFirst(offsets.count - Self.anchorFrames) }
        let mean = offsets.reduce(0, +) / Double(offsets.count)
        segments[segments.count - 1].anchorFrame = start
        segments[segments.count - 1].anchorSamples = mean + Double(start)
    }

    /// The frame number (in the day) the count gives at stream frame `frame`.
    private func predictedIndex(_ segment: TimecodeSegment, at frame: Int64) -> Int {
        let perFrame = segment.rate.samplesPerFrame(sampleRate: sampleRate)
        let index = Int((segment.samples(atStreamFrame: frame) / perFrame).rounded())
        let day = segment.rate.framesPerDay
        return ((index % day) + day) % day
    }

    private func timecode(in segment: TimecodeSegment, at frame: Int64) -> Timecode? {
        Timecode(framesSinceMidnight: predictedIndex(segment, at: frame), rate: segment.rate)
    }

    /// The flywheel: frames of code missing since the last good one, carried on up to
    /// `flywheelFrames`, then lost.
    private func checkMissing(_ events: inout [LTCEvent]) {
        guard let good = lastGood, let segment = segments.last else { return }
        let perFrame = segment.rate.samplesPerFrame(sampleRate: sampleRate)
        // A frame is reported once it has ended: the next is due one frame after that.
        let missing = Int((Double(fedThrough - good.start) / perFrame).rounded(.down)) - 2
        guard missing > 0 else { return }
        if missing <= Self.flywheelFrames {
            if let code = timecode(in: segment, at: fedThrough) { lock = .freewheeling(code, missing: missing) }
        } else if !lostSaid {
            lostSaid = true
            lock = .lost(last: good.code)
            events.append(.lost(last: good.code, atStreamFrame: good.start + Int64((Double(Self.flywheelFrames + 2) * perFrame).rounded())))
        }
    }

    /// The rate a frame of `samplesPerFrame` samples is at: 29.97 drop-frame when the frame
    /// says so, else the nearest of 24, 25 and 30 within 4 % (nil for none: not code).
    static func rate(samplesPerFrame: Double, sampleRate: Int, dropFrame: Bool) -> TimecodeRate? {
        guard samplesPerFrame > 0 else { return nil }
        let fps = Double(sampleRate) / samplesPerFrame
        let candidates: [(TimecodeRate, Double)] = dropFrame ? [(.fps2997DropFrame, 30000.0 / 1001)]
            : [(.fps24, 24), (.fps25, 25), (.fps30, 30)]
        guard let best = candidates.min(by: { abs($0.1 - fps) < abs($1.1 - fps) }), abs(best.1 - fps) / best.1 < 0.04 else { return nil }
        return best.0
    }
}
