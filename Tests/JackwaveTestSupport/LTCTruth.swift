import CLTC
import Foundation

/// What a recorded channel of LTC says, decoded offline by libltc itself (not through
/// jackwave's reader): the truth a file's timestamp is held to.
public struct LTCTruth {
    /// One decoded frame: where libltc says it starts in the channel, and its label.
    public struct Frame: Equatable {
        public let start: Int
        public let hours, minutes, seconds, frames: Int
        public let dropFrame: Bool
    }

    public let frames: [Frame]

    /// Decodes `channel` (0-based) of `recording`, scaled so that its peak is full scale:
    /// libltc reads 8-bit samples, and a −45 dBFS code would round to nothing.
    public init(_ recording: Recording, channel: Int) {
        var samples = (0..<recording.frames).map { recording.sample(frame: $0, channel: channel) ?? 0 }
        let peak = samples.reduce(Float(0)) { max($0, abs($1)) }
        if peak > 0 { samples = samples.map { $0 / peak * 0.9 } }
        var decoded: [Frame] = []
        guard let decoder = ltc_decoder_create(Int32(Double(recording.sampleRate) / 25), 64) else { frames = []; return }
        defer { ltc_decoder_free(decoder) }
        var offset = 0
        while offset < samples.count {
            let n = min(1024, samples.count - offset)
            samples.withUnsafeMutableBufferPointer { buffer in
                ltc_decoder_write_float(decoder, buffer.baseAddress! + offset, n, ltc_off_t(offset))
            }
            offset += n
            var frame = LTCFrameExt()
            while ltc_decoder_read(decoder, &frame) != 0 {
                var time = SMPTETimecode()
                ltc_frame_to_time(&time, &frame.ltc, 0)
                guard frame.reverse == 0 else { continue }
                decoded.append(Frame(start: Int(frame.off_start), hours: Int(time.hours), minutes: Int(time.mins),
                                     seconds: Int(time.secs), frames: Int(time.frame), dropFrame: frame.ltc.dfbit != 0))
            }
        }
        frames = decoded
    }

    /// The frame count since midnight of a label at `fps` (24, 25 or 30; 30 with
    /// `dropFrame` is 29.97 drop-frame, whose labels skip frames 0 and 1 of every minute
    /// but each tenth), by the closed form SMPTE 12M gives.
    public static func framesSinceMidnight(_ f: Frame, fps: Int) -> Int {
        let count = ((f.hours * 60 + f.minutes) * 60 + f.seconds) * fps + f.frames
        guard f.dropFrame else { return count }
        let minutes = f.hours * 60 + f.minutes
        return count - 2 * (minutes - minutes / 10)
    }

    /// Samples since midnight, at `sampleRate`, of the recording's frame 0: each frame's
    /// label time less where it starts, over the frames whose next one follows them, the
    /// median (libltc places the first frame after a start in mid-code a few samples off).
    /// `fps` as in `framesSinceMidnight`; 29.97 frames last 1001/30000 s. Nil if no two
    /// frames follow each other.
    public func samplesAtFirstFrame(fps: Int, sampleRate: Int) -> Double? {
        var offsets: [Double] = []
        for (a, b) in zip(frames, frames.dropFirst()) {
            let n = Self.framesSinceMidnight(a, fps: fps)
            guard Self.framesSinceMidnight(b, fps: fps) == n + 1 else { continue }
            let seconds = a.dropFrame ? Double(n) * 1001 / 30000 : Double(n) / Double(fps)
            offsets.append(seconds * Double(sampleRate) - Double(a.start))
        }
        guard !offsets.isEmpty else { return nil }
        return offsets.sorted()[offsets.count / 2]
    }
}

/// LTC made by `jackwave-ltcsource --raw` (libltc's encoder, shaped as the end-to-end
/// tests' peer shapes it), without a server: the unit tests' code.
public enum LTCSignal {
    /// The samples of `arguments` (the source's options: `--fps`, `--level`, `--mute` …) at
    /// `sampleRate`.
    public static func make(_ arguments: [String], sampleRate: Int = 48000) throws -> [Float] {
        let path = temporaryDirectory() + "/ltc.raw"
        let out = try Run.tool(Tools.ltcSource, ["unit"] + arguments + ["--raw", path, "--rate", "\(sampleRate)"], server: nil, timeout: 30)
        guard out.status == 0 else { throw TestFailure("jackwave-ltcsource: \(out.stderr)") }
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }
}
