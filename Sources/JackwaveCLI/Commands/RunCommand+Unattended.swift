import JackwaveHost

extension RunCommand {
    /// `--events`: its path checked like the other outputs (before anything is touched).
    static func checkEvents(_ o: RunOptions) throws(UsageError) {
        guard let path = o.eventsPath, path != "-" else { return }
        try OutputPath.check(path, force: o.force, option: "--events")
        let others = [("--record", o.recordPath), ("--levels", o.levelsPath), ("--plot", o.plotPath)]
        for case let (option, other?) in others where other != "-" && OutputPath.canonical(other) == OutputPath.canonical(path) {
            throw UsageError("--events and \(option) name the same file (\(path))")
        }
    }

    /// The observer `--events`, `--on-close` and `--osc` ask for, its hook thread started;
    /// nil when none is given. Opening the event file can fail: one line, and `ok` false
    /// (the caller exits 1).
    static func openObserver(_ o: RunOptions, remote: RemoteControl?) -> (ok: Bool, observer: RunObserver?) {
        guard o.eventsPath != nil || o.onClose != nil || remote != nil else { return (true, nil) }
        let events: EventLog?
        do throws(EventLogError) {
            events = try o.eventsPath.map { path throws(EventLogError) in try EventLog(path: path, policy: o.force ? .replace : .new) }
        } catch {
            Console.error(error.message)
            return (false, nil)
        }
        let observer = RunObserver(events: events, hook: o.onClose.map { CloseHook(command: $0, events: events, timeout: o.onCloseTimeout) })
        observer.hook?.start()
        observer.remote = remote
        return (true, observer)
    }

    /// After the last run: lets every `--on-close` command finish, says what they left
    /// to say, and writes the `stopped` event.
    static func finishObserver(_ observer: RunObserver?, code: Int32, run: JackRun) {
        finishObserver(observer, code: code, frame: run.totals().receivedFrames)
    }

    /// The same, with the run's last frame on its timeline given.
    static func finishObserver(_ observer: RunObserver?, code: Int32, frame: Int64) {
        guard let observer else { return }
        if let hook = observer.hook {
            // One more Ctrl-C or SIGTERM while the hooks run stops them: an ending never
            // waits on a hook it was told not to.
            let interrupts = SignalTrap.count
            hook.finish(giveUp: { SignalTrap.count > interrupts })
            for line in hook.messages.drain() { Console.say(line) }
        }
        if let remote = observer.remote {
            remote.attach(nil)
            remote.finish()
            for line in remote.lines.drain() { Console.say(line) }
        }
        observer.events?.emit(.stopped, frame: frame, [("exit_code", .int(Int64(code)))])
        if let failure = observer.events?.failure { Console.error(failure) }
    }
}

extension RunCommand {
    /// `--osc`: the remote control and its listener, listening from now on (its thread is
    /// created while SIGINT and SIGTERM are still held, so it never takes them). A stop over
    /// OSC is an interrupt, as Ctrl-C.
    static func startRemoteControl(_ binding: OscBinding, allowing allowed: OscAllowList) throws(OscListenerError) -> RemoteControl {
        let remote = RemoteControl(requestStop: { SignalTrap.interruptFromRemote() })
        try remote.listen(on: binding, allowing: allowed)
        return remote
    }
}
