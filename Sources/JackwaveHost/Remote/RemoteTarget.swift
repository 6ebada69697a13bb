import Synchronization

/// What remote control may reach of a running connection: its atomics (`EngineSignals`,
/// the writer's frame count, the files' cut request) and values fixed before it started.
/// Built on the main thread; read on the remote-control thread.
public struct RemoteTarget: @unchecked Sendable {
    let signals: EngineSignals
    let files: RecordingFiles?
    let writer: RecordingWriter?
    let playsTone: Bool
    let sampleRate: Int
    /// The connection itself, for its markers (`dropMarker` is thread-safe); weak, so that a
    /// finished connection is not kept alive by remote control.
    weak var run: JackRun?
}

extension JackRun {
    /// This connection as remote control sees it.
    public var remoteTarget: RemoteTarget {
        RemoteTarget(signals: signals, files: recording?.files, writer: writer, playsTone: playsTone, sampleRate: sampleRate,
                     run: self)
    }
}
