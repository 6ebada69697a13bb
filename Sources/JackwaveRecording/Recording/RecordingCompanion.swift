/// Another file beside each of the recording's sound files, following its pieces on the
/// run's timeline: the MIDI of `--midi` (JackwaveMIDI's `MidiRecorder`). Declared here, so
/// that the files tell it without depending on what is built on them. Every call comes on
/// the writer thread, in the order the files are written.
package protocol RecordingCompanion: AnyObject {
    /// `file` got its first frame, at `file.firstFrame` on the run's timeline (its lead-in's
    /// with `--overlap`, its pre-roll's when armed).
    func fileBegan(_ file: RecordedFile)
    /// `file` is finalized at `file.endFrame`. Told before the observer, so that what the
    /// companion writes beside it is complete when the file's `--on-close` hook runs.
    func fileEnded(_ file: RecordedFile)
    /// Every frame of the run's timeline before `timelineFrame` has gone into the files or
    /// the pre-roll: the companion may write what it holds up to there.
    func reached(_ timelineFrame: Int64)
    /// Brings the companion's open files up to date on disk, as the writer does the sound
    /// files' headers (`RecordingWriter.crashBound`).
    func refresh()
}
