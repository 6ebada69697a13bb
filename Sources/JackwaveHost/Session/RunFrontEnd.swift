import JackwaveVocabulary

/// What a run needs from whoever shows it to the user (the terminal, in jackwave's CLI):
/// where its lines go, the user's interrupts, the signals it holds while libjack makes its
/// threads, a live view of the levels, and a turn on every pass of the main loop.
///
/// Called on the main thread only.
public protocol RunFrontEnd: AnyObject {
    /// Shows a line of information (a connection made, a drop, the summary).
    func say(_ line: Phrase)
    /// Shows the one line that explains a failure.
    func error(_ line: Phrase)
    /// Interrupts (SIGINT, SIGTERM, SIGHUP, a remote stop) received so far.
    var interrupts: Int { get }
    /// Whether an interrupt is waiting on this thread while it holds them.
    var interruptPending: Bool { get }
    /// Holds interrupts on this thread (while libjack creates its threads, which must not
    /// take them), and lets them in again.
    func holdInterrupts()
    func receiveInterrupts()
    /// Microseconds between passes of the main loop.
    var pace: UInt32 { get }
    /// The live view of the levels (the terminal's meter), if this front end shows one:
    /// made once, when the run knows its inputs' names and rate.
    func makeDisplay(names: [String], sampleRate: Int, loudnessTarget: Double?,
                     connections: @escaping () -> [[String]]) -> LevelDisplay?
    /// One pass of the main loop: keys, status lines. The front end may change the tone,
    /// drop markers or ask the tone to stop through `control`.
    func tick(_ control: RunControl)
    /// The run has ended its audio for good: restore what the front end took over (the terminal).
    func audioStopped()
}
