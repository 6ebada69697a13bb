/// What an `--events` line reports: its `"event"` field. Adding a kind is one line here
/// (and one `EventLog.emit` call where it happens).
public enum RunEventKind: String, Sendable {
    /// A file's first frame was written (`path`); `frame` is its first frame on the run's timeline.
    case fileOpened = "file_opened"
    /// A file was finalized (`path`, `frames` in it, `ok` false if closing it failed).
    case fileClosed = "file_closed"
    /// The server reported xruns since the last line (`count`).
    case xrun
    /// Frames did not fit in the ring and were written as silence (`frames`).
    case dropped
    /// The server did not run jackwave for `frames` frames (PipeWire skips a client that is
    /// late rather than wait for it); the file goes on without them.
    case skipped
    /// A connection to or from one of jackwave's ports was made (`from`, `to`).
    case connected
    /// A connection to or from one of jackwave's ports was broken (`from`, `to`).
    case disconnected
    /// The server went away (`reason`).
    case serverLost = "server_lost"
    /// A server came back after `--reconnect` waited (`gap_seconds`, `frames_lost`, `lost_by`).
    case serverBack = "server_back"
    /// `--on-close` failed for a file (`path`, `reason`).
    case onCloseFailed = "on_close_failed"
    /// `--on-close` ran past `--on-close-timeout` and its process group was stopped (`path`,
    /// `seconds`, `signal`: TERM, or KILL if it outlived the grace after TERM).
    case onCloseTimeout = "on_close_timeout"
    /// Frame 0 of the run (or of a connection after a reconnect).
    case started
    /// The run ended (`exit_code`).
    case stopped
    /// A marker was dropped (`m`, SIGUSR1, `/jackwave/marker`): its `number` and `label`.
    case marker
    /// A finished file's loudness, measured from the file (`--loudness`, numbered files):
    /// `path`, `lufs_i`, `lra`, `dbtp` (left out where −∞: a silent file).
    case fileLoudness = "file_loudness"
    /// A finished take's loudness, its pieces as one programme: `take`, `lufs_i`, `lra`, `dbtp`.
    case takeLoudness = "take_loudness"
    /// An armed take started (`--trigger` crossed, or the transport rolled): `take`, and
    /// `pre_roll_frames` kept before `frame`.
    case trigger
    /// An input's capture latency, at a connection's start and whenever it changes: `input`
    /// (`in_1`), `min_frames` and `max_frames` (what its sources declare; 0 when none does,
    /// which is unknown rather than none), `connected`.
    case latency
    /// An input that was carrying signal delivered a run of exact zeros, or repeated a period
    /// exactly (`DropoutDetector`): `input`, `kind` (`zeros` or `repeat`), `frames` (its
    /// length); `frame` is its first frame on the run's timeline.
    case dropout
    /// A source port jackwave recorded went away (its client left or restarts): `port`, and
    /// the `input` it fed, which records silence until it is back.
    case sourceGone = "source_gone"
    /// That port is registered again and jackwave connected it to its input again: `port`, `input`.
    case sourceBack = "source_back"
}
