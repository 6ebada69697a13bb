extension JackRun {
    /// Hands the observer the files' openings and closings and the connection reports.
    /// Called before the writer starts, so the writer thread sees the observer set.
    func attachObserver() {
        guard let observer else { return }
        observer.remote?.attach(remoteTarget)
        if let spec = recording?.files.spec {
            observer.setRates(file: spec.fileRate, server: spec.inputRate)
            recording?.files.observer = observer
        }
        if let takes, let events = observer.events {
            // Armed runs are never reconnected, so a take's stream frame is its timeline frame.
            takes.onTrigger = { number, frame, preRoll in
                events.emit(.trigger, frame: frame, [("take", .int(Int64(number))), ("pre_roll_frames", .int(Int64(preRoll)))])
            }
        }
        let signals = self.signals
        notifications.connectionReported = { [unowned observer] from, to, connected in
            observer.connection(from: from, to: to, connected: connected,
                                streamFrame: signals.streamFrames.load(ordering: .relaxed))
        }
    }
}
