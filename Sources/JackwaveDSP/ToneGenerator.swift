import Glibc

/// A sine tone generator: a double-precision phase (no looped table, so the long-run
/// frequency is exact to one `Double` increment's rounding), raised-cosine fades and
/// click-free parameter changes. Each sample is `gain · envelope · sin(2π·phase)` in
/// `Double`, rounded once to `Float`.
///
/// The envelope is an integer position in `0…fadeRange` moving one step a sample, so a fade
/// that reverses half way turns round where it had reached; stopping is a ceiling on it, so
/// `stop()` and `stop(endingAtFrame:)` are one mechanism.
///
/// Realtime-safe: no allocation, lock or syscall. Its libm calls (`sin`, `cos`, `floor` on
/// finite arguments) work in registers with static tables and set no `errno`.
public struct ToneGenerator: Sendable {
    /// How long an amplitude change takes: a 5 ms linear ramp, too short to hear as a slide and
    /// long enough that its slope is tiny beside the sine's.
    public static let amplitudeRampSeconds = 0.005

    /// The frequency last requested, in Hz (the increment is always this over the rate).
    public private(set) var frequency: Double
    /// The amplitude last requested; the gain actually applied ramps towards it.
    public private(set) var amplitude: Float
    /// Samples per second.
    public let sampleRate: Double
    /// Length of a full fade (in, out, pause, resume), in samples; 0 for hard edges.
    public let fadeFrames: Int
    /// Length of an amplitude ramp in samples (`amplitudeRampSeconds` at this rate, ≥ 1).
    public let amplitudeRampFrames: Int
    /// Whether the tone is paused (fading out or silent) rather than playing.
    public private(set) var isPaused = false
    /// Frames processed so far: the generator's own clock, 0 at its first sample.
    public private(set) var framePosition: Int64 = 0

    /// Phase in cycles, `[0, 1)`.
    var phase: Double = 0
    /// Phase step per sample in cycles, reduced to `[0, 1)`, so one conditional subtraction wraps
    /// the phase whatever the frequency (aliases `f + k·sampleRate` and negative frequencies alike).
    var increment: Double
    /// Gain applied now; moves linearly to `amplitude`.
    var gain: Double
    /// Gain change per sample while a ramp runs.
    var gainStep: Double = 0
    /// Samples left in the current amplitude ramp.
    var gainRampLeft: Int = 0
    /// Envelope position of the next sample, `0…fadeRange`; 0 at first, so frame 0 is exactly 0.
    var position: Int64 = 0
    /// +1 while playing (fading in or on), −1 while paused (fading out or silent).
    var direction: Int64 = 1
    /// The first frame at which the output is zero for good; `.max` until a stop.
    var endFrame: Int64 = .max
    /// Top of the position range: `fadeFrames`, or 1 with no fade (a one-sample hard edge), so
    /// the stop rule `position ≤ D − n` means "silent from frame D" either way.
    let fadeRange: Int64
    /// `π / fadeFrames` (0 with no fade, so position 0 still gives level 0 exactly).
    let fadeScale: Double

    /// The steady loop's rotors: eight lanes hold `(sin, cos)` of `2π·phase` for eight consecutive
    /// frames and turn together by `2π·8·increment`, eight independent chains the processor can
    /// overlap. Re-anchored from the exact phase every `rotorAnchorFrames` frames (and where a
    /// steady stretch begins), so rounding stays far below a `Float` step and each sample depends
    /// only on its frame number: the output is the same however the frames are split into calls.
    var laneSin = Lanes(repeating: 0)
    var laneCos = Lanes(repeating: 1)
    /// Which lane holds the next frame (0 ..< laneCount).
    var laneIndex = 0
    /// Whether the lanes hold the current phase (false after any non-steady sample).
    var rotorValid = false
    /// The exact phase at `anchorFrame`, the last anchor: in a steady stretch the phase of
    /// frame `n` is `anchorPhase + (n − anchorFrame)·increment`, reduced to `[0, 1)`.
    var anchorPhase: Double = 0
    var anchorFrame: Int64 = 0
    /// `(sin, cos)` of `2π·k·increment` for lanes k = 0 ..< laneCount, and of
    /// `2π·laneCount·increment`, the lanes' step; for `rotorStepIncrement`.
    var laneOffsetSin = Lanes(repeating: 0)
    var laneOffsetCos = Lanes(repeating: 1)
    var rotorStepSin: Double = 0
    var rotorStepCos: Double = 1
    var rotorStepIncrement: Double = .nan
    /// Eight `Double` lanes: fewer leave the loop bound by the chain's latency.
    typealias Lanes = SIMD8<Double>
    static let laneCount = 8
    /// Re-anchoring period, in the generator's frames: a power of two and a multiple of the
    /// lanes, long enough that the anchor's `sin` and `cos` are a small share of the cost.
    static let rotorAnchorFrames: Int64 = 1024

    /// A tone that begins with a fade-in at its first processed sample (frame 0).
    /// `sampleRate` must be positive and finite, `frequency` and `amplitude` finite,
    /// `fadeFrames` not negative.
    public init(sampleRate: Double, frequency: Double, amplitude: Float, fadeFrames: Int) {
        precondition(sampleRate > 0 && sampleRate.isFinite, "sample rate must be positive")
        precondition(frequency.isFinite && amplitude.isFinite, "frequency and amplitude must be finite")
        precondition(fadeFrames >= 0, "fadeFrames must not be negative")
        self.sampleRate = sampleRate
        self.frequency = frequency
        self.amplitude = amplitude
        self.fadeFrames = fadeFrames
        self.amplitudeRampFrames = max(1, Int((Self.amplitudeRampSeconds * sampleRate).rounded()))
        self.increment = Self.reducedIncrement(frequency, sampleRate)
        self.gain = Double(amplitude)
        self.fadeRange = Int64(max(fadeFrames, 1))
        self.fadeScale = fadeFrames > 0 ? Double.pi / Double(fadeFrames) : 0
    }

    /// `hz / rate` reduced to `[0, 1)`: the division is correct to half an ulp and subtracting
    /// an integer is exact. `rounded(.down)` may call glibc's `floor`, realtime-safe.

    // realtime
    static func reducedIncrement(_ hz: Double, _ rate: Double) -> Double {
        var step = hz / rate
        if step >= 1 || step < 0 { step -= step.rounded(.down) }
        return step < 1 ? step : 0 // `-tiny - floor` can round up to exactly 1
    }

    /// Phase-continuous frequency change: only the increment changes, from the next sample.
    /// A non-finite value is ignored.
    // realtime
    public mutating func setFrequency(_ hz: Double) {
        guard hz.isFinite else { return }
        frequency = hz
        increment = Self.reducedIncrement(hz, sampleRate)
        rotorValid = false
    }

    /// Volume change: the gain ramps linearly from where it is to `a` over `amplitudeRampFrames`
    /// samples (a change during a ramp starts a new one). A non-finite value is ignored.
    // realtime
    public mutating func setAmplitude(_ a: Float) {
        guard a.isFinite else { return }
        amplitude = a
        gainRampLeft = amplitudeRampFrames
        gainStep = (Double(a) - gain) / Double(amplitudeRampFrames)
    }

    /// Pause (a fade-out, then silence) or resume (a fade back in), turning round mid-fade
    /// without a jump. The phase runs on while paused, so a resumed tone stays on the time grid
    /// of one never paused.
    // realtime
    public mutating func setPaused(_ paused: Bool) {
        isPaused = paused
        direction = paused ? -1 : 1
    }

    /// Begins the fade-out now, from the current level, one position a sample down to 0; from
    /// then on every sample is 0 and `isFinished` is true. A stop already scheduled earlier wins.
    // realtime
    public mutating func stop() {
        endFrame = min(endFrame, framePosition &+ currentPosition)
    }

    /// Schedules the fade-out to end exactly at generator frame `end` (the samples from `end` on
    /// are 0). An earlier stop wins; an end too soon to fade without a jump is moved to the
    /// earliest click-free one, as `stop()` would give.
    // realtime
    public mutating func stop(endingAtFrame end: Int64) {
        endFrame = min(endFrame, max(end, framePosition &+ currentPosition))
    }

    /// True once the fade-out has finished: this and every later sample is zero.
    // realtime
    public var isFinished: Bool { framePosition >= endFrame }

    /// The envelope position the next sample would have, the stop ceiling applied.
    var currentPosition: Int64 {
        framePosition >= endFrame ? 0 : min(position, endFrame &- framePosition)
    }

    /// The envelope level of the next sample, 0…1 (1 is the tone at full amplitude).
    public var envelope: Double { level(currentPosition) }

    /// The raised-cosine level of a position: exactly 1 at the top, exactly 0 at 0. `cos` only
    /// during fades.
    // realtime
    @inline(__always)
    func level(_ p: Int64) -> Double {
        p >= fadeRange ? 1 : 0.5 - 0.5 * cos(fadeScale * Double(p))
    }

    /// Writes `count` samples to `out` and advances the generator by `count` frames. Realtime-safe.
    ///
    /// The rotor lanes while the tone is plainly on, otherwise `sin` sample by sample. The two
    /// round differently (far below a `Float` step), but which one makes a frame depends only
    /// on the generator's state there, never on how the frames were split into calls.
    // realtime
    public mutating func process(into out: UnsafeMutablePointer<Float>, count: Int) {
        var i = 0
        while i < count {
            if framePosition >= endFrame {
                // Finished: silence for good. The phase no longer matters.
                (out + i).update(repeating: 0, count: count &- i)
                framePosition &+= Int64(count &- i)
                return
            }
            if position == fadeRange && direction > 0 && gainRampLeft == 0
                && endFrame &- framePosition > fadeRange {
                // Steady: frames n with endFrame − n ≥ fadeRange keep the full envelope.
                let steadyFrames = endFrame &- fadeRange &- framePosition &+ 1
                let n = Int(min(Int64(count &- i), steadyFrames))
                processSteady(into: out + i, count: n)
                i &+= n
                continue
            }
            // General: one sample with the envelope, the ramp and the stop ceiling.
            rotorValid = false
            let ceiling = endFrame &- framePosition // ≥ 1: not finished
            if position > ceiling { position = ceiling }
            let e = level(position)
            out[i] = Float(gain * e * sin(2 * Double.pi * phase))
            position = min(max(position &+ direction, 0), fadeRange)
            phase += increment
            if phase >= 1 { phase -= 1 }
            if gainRampLeft > 0 {
                gainRampLeft &-= 1
                // Land exactly on the target: no drift from summing the steps.
                gain = gainRampLeft == 0 ? Double(amplitude) : gain + gainStep
            }
            framePosition &+= 1
            i &+= 1
        }
    }

    /// `count` frames of the plain tone (full envelope, no ramp, no stop among them) from the lanes.
    // realtime
    @inline(__always)
    mutating func processSteady(into out: UnsafeMutablePointer<Float>, count n: Int) {
        if rotorStepIncrement != increment { prepareRotorSteps() }
        let g = gain
        var k = 0
        while k < n {
            let frame = framePosition &+ Int64(k)
            // Frames are never negative, so the mask is `% rotorAnchorFrames`.
            let intoAnchor = Int(frame & (Self.rotorAnchorFrames &- 1))
            if !rotorValid || intoAnchor == 0 { anchorLanes(at: frame) }
            let m = min(n &- k, Int(Self.rotorAnchorFrames) &- intoAnchor)
            emitLanes(into: out + k, count: m, gain: g)
            k &+= m
            let sinceAnchor = Double(frame &+ Int64(m) &- anchorFrame)
            phase = Self.wrapped(anchorPhase + sinceAnchor * increment)
        }
        framePosition &+= Int64(n)
    }

    /// `x − ⌊x⌋`: a phase reduced to `[0, 1)` (`rounded(.down)` may be glibc's `floor`,
    /// which only manipulates bits).
    // realtime
    @inline(__always)
    static func wrapped(_ x: Double) -> Double {
        let r = x - x.rounded(.down)
        return r < 1 ? r : 0
    }

    /// Sets the lanes to frames `frame ..< frame + laneCount` from the exact phase of `frame` (`phase`).
    // realtime
    @inline(__always)
    mutating func anchorLanes(at frame: Int64) {
        let s0 = sin(2 * Double.pi * phase), c0 = cos(2 * Double.pi * phase)
        // Lane 0 is the anchor itself (offset (0, 1): exact); lane k is it turned by k steps.
        laneSin = s0 * laneOffsetCos + c0 * laneOffsetSin
        laneCos = c0 * laneOffsetCos - s0 * laneOffsetSin
        laneIndex = 0
        anchorPhase = phase
        anchorFrame = frame
        rotorValid = true
    }

    /// The lanes' offsets and step for the current increment (libm, once per frequency).
    // realtime
    mutating func prepareRotorSteps() {
        rotorStepIncrement = increment
        for k in 1..<Self.laneCount {
            let angle = 2 * Double.pi * Self.wrapped(Double(k) * increment)
            laneOffsetSin[k] = sin(angle)
            laneOffsetCos[k] = cos(angle)
        }
        laneOffsetSin[0] = 0
        laneOffsetCos[0] = 1
        let step = 2 * Double.pi * Self.wrapped(Double(Self.laneCount) * increment)
        rotorStepSin = sin(step)
        rotorStepCos = cos(step)
        rotorValid = false
    }

    /// Writes `count` samples from the lanes, a lane-vector at a time where they line up, and
    /// leaves `laneIndex` on the next frame's lane.
    // realtime
    @inline(__always)
    mutating func emitLanes(into out: UnsafeMutablePointer<Float>, count m: Int, gain g: Double) {
        var o = 0
        while o < m && laneIndex != 0 {
            out[o] = Float(g * laneSin[laneIndex])
            laneIndex &+= 1
            if laneIndex == Self.laneCount { advanceLanes(); laneIndex = 0 }
            o &+= 1
        }
        while o &+ Self.laneCount <= m {
            let v = g * laneSin
            let samples = SIMD8<Float>(Float(v[0]), Float(v[1]), Float(v[2]), Float(v[3]),
                                       Float(v[4]), Float(v[5]), Float(v[6]), Float(v[7]))
            UnsafeMutableRawPointer(out + o).storeBytes(of: samples, as: SIMD8<Float>.self)
            advanceLanes()
            o &+= Self.laneCount
        }
        while o < m {
            out[o] = Float(g * laneSin[laneIndex])
            laneIndex &+= 1
            o &+= 1
        }
    }

    /// Turns every lane by `laneCount` frames.
    // realtime
    @inline(__always)
    mutating func advanceLanes() {
        let s = laneSin, c = laneCos
        laneSin = s * rotorStepCos + c * rotorStepSin
        laneCos = c * rotorStepCos - s * rotorStepSin
    }
}
