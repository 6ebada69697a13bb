/// What a run needs from whoever shows it to the user (the terminal, in jackwave's CLI):
/// where its lines go, the user's interrupts, and a turn on every pass of the main loop.
///
/// Called on the main thread only.
public protocol RunFrontEnd: AnyObject {
    /// Shows a line of information (a connection made, a drop, the summary).
    func say(_ line: String)
    /// Shows the one line that explains a failure.
    func error(_ line: String)
    /// Interrupts (SIGINT, SIGTERM) received so far.
    var interrupts: Int { get }
    /// Microseconds between passes of the main loop.
    var pace: UInt32 { get }
    /// One pass of the main loop: keys, status lines. The front end may change the tone or
    /// ask it to stop through `run`.
    func tick(_ run: JackRun)
    /// The run has stopped its audio: restore what the front end took over (the terminal).
    func audioStopped()
}
