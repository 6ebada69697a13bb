import JackwaveVocabulary
import Glibc
import JackwaveHost
import JackwaveRunSupport

/// The terminal's side of a run: the meter, the keys that change a tone or drop a marker, the
/// tone's status line, lines said above the meter, and Ctrl-C. When things happen is the
/// host's `Session` to decide.
final class TerminalFrontEnd: RunFrontEnd {
    /// Main-loop period while something is live (meter, level stream, keys): 20 ms redraws
    /// the meter at 25 frames a second and answers a key at once.
    static let livePace: UInt32 = 20_000
    /// Main-loop period when it only watches for the end (a plain recording): 200 ms. A
    /// signal cuts the sleep short, so Ctrl-C is still answered at once; the duration's end
    /// or a lost server is noticed within 0.2 s, and the process wakes 5 times a second
    /// instead of 50.
    static let quietPace: UInt32 = 200_000

    let pace: UInt32
    private let options: RunOptions
    /// The meter, once the run has made it: lines go above it.
    private var meter: LiveMeter?
    /// Whether the run consumes levels at all (a meter or a level stream).
    private let consumesLevels: Bool
    /// The tone as last shown, when a tone plays (the keys' or OSC's latest), once the
    /// server's rate is known.
    private var tone: ToneParameters?
    private var keyboard: KeyboardInput?
    private var keyboardStarted = false
    /// SIGUSR1s already turned into markers.
    private var markerSignals = 0
    /// The tone's status line when there is a keyboard to change it and no meter to show it.
    private var toneStatus: ToneStatusLine?
    /// Whether keys are read (not with `--no-meter`: headless, as under a service manager).
    private let readsKeys: Bool

    /// The front end for a run of `options`: a meter when stderr is a terminal (or `--meter`),
    /// keys for the tone and markers unless `--no-meter`.
    init(options: RunOptions) {
        self.options = options
        readsKeys = options.levels.meter != false
        consumesLevels = options.wantsInputs && (options.levels.path != nil || Self.showsMeter(options))
        // A recording on a terminal, where `m` drops a marker: the live pace answers it
        // within 20 ms, so the marker lands near the frame it was meant for.
        let markerKeys = options.records && isatty(0) != 0 && options.levels.meter != false
        pace = consumesLevels || options.playsTone || markerKeys ? Self.livePace : Self.quietPace
    }

    /// Whether the meter is drawn: `--meter`, or stderr is a terminal (not with `--no-meter`).
    static func showsMeter(_ o: RunOptions) -> Bool { o.levels.meter ?? (isatty(2) != 0) }

    var interrupts: Int { SignalTrap.count }
    var interruptPending: Bool { SignalTrap.isPending }
    func holdInterrupts() { SignalTrap.holdOnMainThread() }
    func receiveInterrupts() { SignalTrap.receiveOnMainThread() }

    func makeDisplay(names: [String], sampleRate: Int, loudnessTarget: Double?,
                     connections: @escaping () -> [[String]]) -> LevelDisplay? {
        guard Self.showsMeter(options) else { return nil }
        let made = LiveMeter(names: names, sampleRate: sampleRate, connections: connections, loudnessTarget: loudnessTarget)
        meter = made
        return made
    }

    func say(_ phrase: Phrase) {
        let line = phrase.line
        if let meter { meter.printAbove("jackwave: \(TerminalEscaping.escape(line))") }
        else if let toneStatus { toneStatus.printAbove("jackwave: \(TerminalEscaping.escape(line))") }
        else { Console.say(line) }
    }

    func error(_ line: Phrase) { Console.error(line) }

    /// Reads the keys while the tone plays or a recording runs, and tells the run what they
    /// changed: the tone, or a marker (`m`).
    func tick(_ control: RunControl) {
        guard control.playsTone || control.records else { return }
        while control.records && markerSignals < SignalTrap.markerCount {
            markerSignals += 1
            control.dropMarker()
        }
        if !keyboardStarted {
            keyboardStarted = true
            keyboard = readsKeys ? KeyboardInput() : nil
            if control.playsTone, let rate = control.sampleRate {
                let playing = control.playingTone
                tone = ToneParameters(frequency: playing.frequency, amplitude: playing.amplitude, nyquist: Double(rate) / 2)
            }
            if let tone, !consumesLevels && isatty(2) != 0 {
                toneStatus = ToneStatusLine()
                toneStatus?.show(tone.description)
            }
        }
        guard let keyboard else { return }
        let bytes = keyboard.read()
        if control.records { for _ in 0..<MarkerKey.count(in: bytes) { control.dropMarker() } }
        guard var current = tone, !control.toneStopping else { return }
        // Keys start from the tone that plays now: OSC may have changed it since the last key.
        (current.frequency, current.amplitude, current.paused) = control.playingTone
        let playing = current
        var quit = false
        for key in ToneKeyParser.parse(bytes) {
            if key == .quit { quit = true } else { current.apply(key) }
        }
        if current != playing {
            control.setTone(frequency: current.frequency, amplitude: current.amplitude, paused: current.paused)
        }
        if current != tone {
            // The status line follows OSC's changes too; a plain line is said for a key's only
            // (OSC says its own).
            if let toneStatus { toneStatus.show(current.description) }
            else if !consumesLevels && current != playing { Console.say("tone \(current.description)") }
        }
        tone = current
        if quit { control.stopTone() }
    }

    func audioStopped() {
        keyboard?.restore()
        keyboard = nil
        toneStatus?.close()
        toneStatus = nil
    }
}
