import JackwaveHost
import JackwavePlot
import JackwaveSoundFiles
import JackwaveUnattended

/// The main command: record, play a tone, meter and export levels, in one JACK client.
///
/// The terminal's side only: the options in, the meter and the keys (`TerminalFrontEnd`),
/// the lines out. What is built and when, from the first check to the summary, is the
/// host's `Session`.
public enum RunCommand {
    /// `frontEnd` wraps the terminal's, for a run that someone else watches too (a session
    /// manager: `SessionManagedRun`).
    public static func run(_ o: RunOptions, frontEnd wrap: (any RunFrontEnd) -> any RunFrontEnd = { $0 }) -> Int32 {
        if o.recording.listFormats {
            Console.writeOut(FormatCatalog.lines().joined(separator: "\n") + "\n")
            return 0
        }
        // Before any thread exists: the run's threads inherit interrupts held (SignalTrap).
        SignalTrap.install()
        let frontEnd = wrap(TerminalFrontEnd(options: o))
        let session: Session
        do throws(SessionError) {
            // A remote `/jackwave/stop` is an interrupt, exactly as Ctrl-C.
            // --plot's pictures: an existing one is replaced under --force, else drawn under
            // the next free name (said), as a recording's piece would be.
            let existing: PictureFile.Existing = o.recording.force ? .replace : .nextFreeName
            session = try Session(options: o, frontEnd: frontEnd, requestStop: { SignalTrap.interruptFromRemote() },
                                  drawPicture: { recording, picture in
                                      do throws(PlotError) {
                                          return .success(try Plot.draw(recording, to: picture, existing: existing))
                                      } catch {
                                          return .failure(PictureFailure(error.message.line))
                                      }
                                  })
        } catch {
            frontEnd.error(error.message)
            return error.exitCode
        }
        return session.run()
    }
}
