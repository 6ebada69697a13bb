import JackwaveHost
import JackwaveSoundFiles

/// The main command: record, play a tone, meter and export levels, in one JACK client.
///
/// The terminal's side only: the options in, the meter and the keys (`TerminalFrontEnd`),
/// the lines out. What is built and when, from the first check to the summary, is the
/// host's `Session`.
public enum RunCommand {
    public static func run(_ o: RunOptions) -> Int32 {
        if o.listFormats {
            Console.writeOut(FormatCatalog.lines().joined(separator: "\n") + "\n")
            return 0
        }
        // Before any thread exists: the run's threads inherit interrupts held (SignalTrap).
        SignalTrap.install()
        let frontEnd = TerminalFrontEnd(options: o)
        let session: Session
        do throws(SessionError) {
            // A remote `/jackwave/stop` is an interrupt, exactly as Ctrl-C.
            session = try Session(options: o, frontEnd: frontEnd, requestStop: { SignalTrap.interruptFromRemote() })
        } catch {
            Console.error(error.message)
            return error.exitCode
        }
        return session.run()
    }
}
