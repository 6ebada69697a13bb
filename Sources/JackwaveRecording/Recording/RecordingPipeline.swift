import JackwaveSoundFiles

/// What happens to one connection's frames between the audio ring and the files, on the
/// writer thread: rate conversion (`--rate`), rounding to 16 or 24 bits with dither
/// (`--bits`), then the run's files (`--split`, takes).
///
/// Frames come in segments (`RecordingFiles`): the whole connection, or each take. A segment
/// starts the resampler afresh (its audio does not follow the last segment's), and its end
/// (`finishSegment`) flushes the resampler and makes the segment exactly
/// round(input frames × fileRate / inputRate) frames long in the files.
public final class RecordingPipeline: @unchecked Sendable {
    public let files: RecordingFiles
    let resampler: Resampler?
    var quantizer: Quantizer?
    /// Where resampled or rounded frames are built (the ring's own memory is never changed).
    private let scratch: UnsafeMutablePointer<Float>
    /// 4096 frames: one write per JACK period or more, small enough to stay in cache.
    static let scratchFrames = 4096
    private let channels: Int
    /// Frames taken in this connection, at the server's rate (audio and gap silence).
    public private(set) var inputFrames: Int64 = 0
    /// The segment's frames taken in (server's rate) and written (file's rate).
    private var segmentInput: Int64 = 0
    private var segmentOutput: Int64 = 0
    /// Why the pipeline stopped, if it did.
    public private(set) var failure: String?

    /// The converter and quantizer `files.spec` asks for, writing into `files`.
    public init(files: RecordingFiles) throws(RecordingSetupError) {
        let spec = files.spec
        self.files = files
        do throws(ResamplerError) {
            resampler = spec.resamples
                ? try Resampler(inputRate: spec.inputRate, outputRate: spec.fileRate, channels: spec.channels)
                : nil
        } catch {
            throw RecordingSetupError(message: "cannot convert \(spec.inputRate) Hz to \(spec.fileRate) Hz: \(error.reason)")
        }
        quantizer = spec.quantizedBits.map { Quantizer(bits: $0, dither: spec.dither) }
        channels = spec.channels
        scratch = .allocate(capacity: Self.scratchFrames * spec.channels)
    }

    deinit { scratch.deallocate() }

    /// Takes `count` frames at the server's rate; false once something failed.
    public func push(_ frames: UnsafePointer<Float>, count: Int) -> Bool {
        guard failure == nil else { return false }
        inputFrames += Int64(count)
        segmentInput += Int64(count)
        if let resampler {
            var used = 0
            while used < count {
                do throws(ResamplerError) {
                    let step = try resampler.process(frames + used * channels, frames: count - used,
                                                     into: scratch, capacity: Self.scratchFrames)
                    used += step.used
                    guard emit(scratch, count: step.produced) else { return false }
                    if step.used == 0 && step.produced == 0 { return fail("the resampler made no progress") }
                } catch {
                    return fail("resampling failed: \(error.reason)")
                }
            }
            return true
        }
        guard quantizer != nil else { return write(frames, count: count) }
        var done = 0
        while done < count {
            let n = min(count - done, Self.scratchFrames)
            scratch.update(from: frames + done * channels, count: n * channels)
            guard emit(scratch, count: n) else { return false }
            done += n
        }
        return true
    }

    /// Starts a segment at frame `streamFrame` of this connection's stream: the resampler
    /// forgets the last segment's audio.
    public func beginSegment(atStreamFrame streamFrame: Int64) -> Bool {
        segmentInput = 0
        segmentOutput = 0
        files.beginSegment(atStreamFrame: streamFrame)
        do throws(ResamplerError) {
            try resampler?.reset()
        } catch {
            return fail("resampling failed: \(error.reason)")
        }
        return true
    }

    /// Flushes the resampler and trims or pads the segment's output to its exact length:
    /// round(input frames × fileRate / inputRate). The files stay open: the caller ends the
    /// segment or the take. False once something failed.
    @discardableResult
    public func finishSegment() -> Bool {
        guard failure == nil, let resampler else { return failure == nil }
        let target = (segmentInput * Int64(resampler.outputRate) + Int64(resampler.inputRate / 2)) / Int64(resampler.inputRate)
        while true {
            do throws(ResamplerError) {
                let step = try resampler.process(nil, frames: 0, into: scratch, capacity: Self.scratchFrames)
                if step.produced == 0 { break }
                let keep = Int(max(0, min(Int64(step.produced), target - segmentOutput)))
                guard emit(scratch, count: keep) else { return false }
            } catch {
                return fail("resampling failed: \(error.reason)")
            }
        }
        while segmentOutput < target {
            let n = Int(min(Int64(Self.scratchFrames), target - segmentOutput))
            scratch.update(repeating: 0, count: n * channels)
            guard emit(scratch, count: n) else { return false }
        }
        return true
    }

    /// Rounds `count` frames of our own scratch memory if asked, then writes them.
    private func emit(_ frames: UnsafeMutablePointer<Float>, count: Int) -> Bool {
        guard count > 0 else { return true }
        quantizer?.process(frames, count: count * channels)
        return write(frames, count: count)
    }

    private func write(_ frames: UnsafePointer<Float>, count: Int) -> Bool {
        let ok = files.write(frames, count: count)
        segmentOutput += Int64(count)
        if !ok { failure = files.failure ?? "write failed" }
        return ok
    }

    private func fail(_ message: String) -> Bool {
        failure = message
        return false
    }
}

/// A recording that cannot start: its file cannot be created or its rate not converted.
public struct RecordingSetupError: Error, Equatable {
    public let message: String
}

extension RecordingPipeline {
    /// Takes the files' failure as the pipeline's (a take's file that could not be opened
    /// or closed), so that the writer reports it and the run stops.
    func recordFilesFailure() {
        if failure == nil { failure = files.failure ?? "write failed" }
    }
}
