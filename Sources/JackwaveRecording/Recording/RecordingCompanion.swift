/// Another file beside each of the recording's sound files, following its pieces on the
/// run's timeline: the MIDI of `--midi` (JackwaveMIDI's `MidiHandOff`, which hands each call
/// to the MIDI thread). Declared here, so that the files tell it without depending on what is
/// built on them.
///
/// Every call comes on the writer thread (or the main thread while no writer runs), in the
/// order the files are written, and must return at once: the companion's own work (its
/// files, its disk, its library) runs on a thread of its own, so that whatever happens to it
/// never holds up the audio.
package protocol RecordingCompanion: AnyObject, Sendable {
    /// `file` got its first frame, at `file.firstFrame` on the run's timeline (its lead-in's
    /// with `--overlap`, its pre-roll's when armed).
    func fileBegan(_ file: RecordedFile)
    /// `file` is finalized at `file.endFrame`. Told before the observer; returns the ticket
    /// that `waitUntilFinished` takes, so that the file's finisher can wait for what the
    /// companion writes beside it before the file's `--on-close` hook runs.
    func fileEnded(_ file: RecordedFile) -> Int
    /// Every frame of the run's timeline before `timelineFrame` has gone into the files or
    /// the pre-roll: the companion may write what it holds up to there.
    func reached(_ timelineFrame: Int64)
    /// Asks for the companion's open files to be brought up to date on disk, as the writer
    /// does the sound files' headers (`RecordingWriter.crashBound`).
    func refresh()
    /// Waits up to `timeout` seconds (any thread but the writer's) until what the companion
    /// writes beside the file whose end gave `ticket` is complete; true once it is, or once
    /// the companion has stopped (and said so), false past the bound.
    func waitUntilFinished(_ ticket: Int, timeout: Double) -> Bool
}
