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

    /// The live stream's server took the login (`url`, `connection` from 1, `missed_frames`
    /// not streamed while it was away).
    case streamConnected = "stream_connected"
    /// The live stream's connection went (`url`, `reason`, `retry_seconds`).
    case streamLost = "stream_lost"
    /// An attempt to connect the live stream failed (`url`, `reason`, `retry_seconds`).
    case streamConnectFailed = "stream_connect_failed"
    /// The live stream fell behind and skipped `frames` (the recording has them).
    case streamDropped = "stream_dropped"
    /// Dead air (`--silence`): the feed has been silent for the set length (`since_frame`, its
    /// first silent frame; `seconds`, the length; `level_db`).
    case silenceStarted = "silence_started"
    /// Dead air ended (`since_frame`; `duration`, the whole silence in seconds).
    case silenceEnded = "silence_ended"
    /// Clips in one second of the timeline (`count`, and `inputs`: each input's count).
    case clipping
    /// Retention deleted one of jackwave's own files (`path`, `bytes`, `reason`; `freed`
    /// false when another link kept its bytes on the disk).
    case fileDeleted = "file_deleted"
    /// Retention could not start (a manifest or lock file it cannot trust or read, another
    /// jackwave's lock): `reason`. The run records without it; nothing is deleted.
    case retentionOff = "retention_off"
    /// Files are held from before a suspected clock step (the wall clock said every earlier
    /// file was past `--keep`: a bad RTC, an NTP step): none goes by age until jackwave has
    /// seen `--keep` pass with them held, added up across runs (`files`;
    /// `newest_age_seconds`, how old the newest looks; `seen_seconds`, the time seen so far;
    /// `keep_seconds`). Once a run while a hold lasts.
    case retentionHeld = "retention_held"
    /// Retention failed at part of its job, and the recording goes on: a file it could not
    /// delete (`path`, `reason`; once a run for each), or its manifest that could not be
    /// saved (`reason`; once until it is saved again).
    case retentionFailed = "retention_failed"
    /// The session manager (NSM) is gone (`reason`: `parent`, the process that started
    /// jackwave ended, or `socket`, another socket or none is on its port; `pid`,
    /// `address`): nothing more from its address is obeyed; the recording goes on.
    case sessionManagerLost = "session_manager_lost"
    /// A message from the gone session manager's address was refused (`request`, its OSC
    /// path; `from`; `folder` for an open): whoever holds that port now is not the manager.
    case sessionRequestRefused = "session_request_refused"
    /// The wall clock jumped (`seconds`): a new piece starts at once; the audio is untouched.
    case clockStep = "clock_step"
    /// A MIDI file was finalized (`path`, `events`: how many each MIDI input put in it,
    /// `chased_notes`: notes it ended at its cut and its successor started again).
    case midiFileClosed = "midi_file_closed"
    /// A MIDI file could not be made or written, or MIDI stopped for the run (a MIDI thread
    /// too far behind, or not ended in time): `path` (empty when no one file), `reason`. Its
    /// MIDI is lost from there; the audio goes on.
    case midiFailed = "midi_failed"
    /// MIDI events were lost since the last line (`input`, `count`, `reason`: `jack` for the
    /// server's own count, `ring` for no room on the way to the MIDI thread, `malformed`,
    /// `unrecordable` for what a Standard MIDI File cannot hold, `writer` for a file or the
    /// waiting events full, `failed` for a `.mid` that failed or MIDI stopped, `unfinished`
    /// for what a MIDI thread that did not end had not written).
    case midiLost = "midi_lost"
    /// A MIDI Machine Control command came on the control input (`command`: `record_strobe`,
    /// `record_exit`, `stop`, or `ignored` for one jackwave does not act on).
    case machineControl = "mmc"
    /// The LTC input (`--ltc`) locked (`timecode`, `rate` as iXML spells it, `drop_frame`),
    /// at first or after a loss.
    case timecodeLocked = "timecode_locked"
    /// The timecode jumped: re-jammed, or a new take on the source (`from`, `to`). The files
    /// after it carry the new code; the file that spans it has a marker there.
    case timecodeJump = "timecode_jump"
    /// The LTC was missing for longer than the flywheel carries it (`last`): files begun
    /// while it is lost take the wall clock's time.
    case timecodeLost = "timecode_lost"

    // A side job's own failures and drops: each fails alone, the recording goes on
    // (docs/side-jobs.md).
    /// The events file's reader did not take `count` events before this one; they are lost.
    case eventsDropped = "events_dropped"
    /// The events file could not be written (`path`, `reason`): no more events go there.
    /// Handed to `--on-event` only, since the file cannot hold it.
    case eventsFailed = "events_failed"
    /// The level stream's reader did not take `rows` rows (`path`); they are lost.
    case levelsDropped = "levels_dropped"
    /// The level stream could not be written (`path`, `reason`): no more rows go there.
    case levelsFailed = "levels_failed"
    /// A file begun with `--ltc` took the wall clock's time (`path`, `reason`: `no_code`, none
    /// locked there; `reader_behind`, the LTC reader had not read that far in time).
    case timecodeMissing = "timecode_missing"
    /// The file finisher did not get to a file before the end of the run's bound on it
    /// (`path`): its picture, loudness and `--on-close` are left out.
    case fileUnfinished = "file_unfinished"

    /// Whether `--on-event` runs for it: what a person may have to act on, not the run's
    /// routine (files, connections, xruns, markers).
    public var runsEventHook: Bool {
        switch self {
        case .silenceStarted, .silenceEnded, .clipping, .serverLost, .serverBack, .streamLost, .streamConnected,
             .fileDeleted, .retentionOff, .retentionHeld, .retentionFailed, .clockStep, .onCloseFailed, .midiFailed, .stopped,
             .timecodeJump, .timecodeLost, .sessionManagerLost, .sessionRequestRefused, .eventsFailed, .levelsFailed,
             .fileUnfinished: true
        default: false
        }
    }
}
