import JackwaveRunSupport
import JackwaveSoundFiles
import JackwaveVocabulary

/// The rules between a run's settings, checked in one place as soon as they are read, before
/// anything is touched: settings that exclude each other, and settings that mean nothing
/// without another (refused rather than ignored). What needs the disk or the server is
/// checked later (RunOptions+Checks.swift). Each failure names its settings; the command
/// line spells them.
extension RunOptions {
    /// Ports given and none to be connected: checked first, since each port option given
    /// with `manual` would otherwise be refused for what it needs.
    public func validatePorts() throws(UsageError) {
        if jack.manual && !jack.portPatterns.isEmpty { throw UsageError("\(setting: .manual) and \(setting: .port) exclude each other") }
        if jack.manual && !tone.toPatterns.isEmpty { throw UsageError("\(setting: .manual) and \(setting: .to) exclude each other") }
    }

    /// Every other rule between settings.
    public func validate() throws(UsageError) {
        guard !recording.listFormats else { return }
        try validatePorts()
        try validateUnattended()
        try validateStation()
        try validateTakes()
        try validateManaged()
        try validateMidi()
        try validateTakeNames()
        if jack.manual && timecode.ltcPort != nil { throw UsageError("\(setting: .manual) and \(setting: .ltc) exclude each other") }
    }

    /// MIDI: a `.mid` recording holds MIDI alone; the control input arms takes of its own.
    private func validateMidi() throws(UsageError) {
        if jack.manual && !midi.portPatterns.isEmpty { throw UsageError("\(setting: .manual) and \(setting: .midiPort) exclude each other") }
        if midi.controlPort != nil && (takes.triggerLevel != nil || takes.followTransport) {
            throw UsageError("\(setting: .mmc) and \(setting: takes.followTransport ? .transport : .trigger) exclude each other (each starts the takes)")
        }
        if midi.marker != nil && midi.controlPort == nil {
            throw UsageError("\(setting: .midiMarker) needs \(setting: .mmc) PORT, the control input it listens to")
        }
        // Retention lists and deletes the sound files it made; a .mid beside each would be
        // left behind, and the archive would grow without bound.
        if midi.inputs > 0 && (station.retention.seconds != nil || station.retention.bytes != nil) {
            throw UsageError("\(setting: .midi) and \(setting: station.retention.seconds != nil ? .keep : .keepSpace) exclude each other: retention does not list .mid files yet, and would leave them behind")
        }
        guard recordsMidiOnly, let path = recording.path else { return }
        guard midi.inputs > 0 else {
            throw UsageError("\(setting: .record) \(path) records MIDI alone: give \(setting: .midi) N, the MIDI inputs to record")
        }
        let audioOnly: [(Bool, Setting)] = [
            (jack.channels != nil, .channels), (!jack.portPatterns.isEmpty, .port), (recording.format != nil, .format),
            (recording.depth != nil, .bits), (recording.fileRate != nil, .rate), (recording.splitSeconds != nil, .split),
            (recording.quality != nil, .quality), (recording.plotPath != nil, .plot), (station.splitEvery != nil, .splitEvery),
            (station.stream != nil, .stream), (levels.loudness, .loudness), (takes.triggerLevel != nil, .trigger),
            (takes.followTransport, .transport), (midi.controlPort != nil, .mmc),
        ]
        for (given, setting) in audioOnly where given {
            throw UsageError("\(setting: .record) \(path) holds MIDI alone, so \(setting: setting) has nothing to act on: record take.wav to have the audio with take.mid beside it")
        }
    }

    /// In a session, every file the run writes stays in the client's folder: the session
    /// manager copies, moves and deletes that folder as the client's whole state.
    private func validateManaged() throws(UsageError) {
        guard let folder = managed.folder else { return }
        // The folder itself resolved (symbolic links followed), as each path's folder is.
        let root = String(OutputPath.canonical(folder + "/x").dropLast(2))
        let written: [(Setting, String?)] = [(.record, recording.path), (.levels, levels.path == "-" ? nil : levels.path),
                                             (.plot, recording.plotPath), (.events, unattended.eventsPath == "-" ? nil : unattended.eventsPath)]
        for case let (setting, path?) in written {
            let absolute = path.hasPrefix("/") ? path : folder + "/" + path
            let canonical = OutputPath.canonical(absolute)
            guard canonical.hasPrefix(root + "/"), !path.split(separator: "/").contains("..") else {
                throw UsageError("\(setting: setting) \(path): outside the session's folder \(folder); in a session every file stays inside it")
            }
        }
        if let pattern = station.namePattern?.text, pattern.hasPrefix("/") || pattern.split(separator: "/").contains("..") {
            throw UsageError("\(setting: .namePattern) \(pattern): outside the session's folder \(folder); in a session every file stays inside it")
        }
    }

    /// `--name-pattern` names a take (`%S_%T.wav`) unless the files are cut on the wall clock:
    /// then it names a time (`%H%M.wav`), and each kind's fields are refused in the other.
    /// A take's name is a file name, whose fields must have been given, without a `/`.
    private func validateTakeNames() throws(UsageError) {
        guard let pattern = station.namePattern else { return }
        let used = pattern.specifiersUsed
        if station.splitEvery != nil {
            if let field = used.subtracting(NamePattern.specifiers).sorted().first {
                throw UsageError("\(setting: .namePattern) \(pattern.text): %\(field) names a take; with \(setting: .splitEvery) the pattern names a time (%Y %m %d %H %M %S …)")
            }
            return
        }
        guard recording.path != nil else { throw UsageError("\(setting: .namePattern) needs \(setting: .record) (the folder and format of the files it names)") }
        if let field = used.subtracting(NamePattern.takeSpecifiers).sorted().first {
            throw UsageError("\(setting: .namePattern) \(pattern.text): %\(field) names a time, only with \(setting: .splitEvery); a take's name takes %S (scene), %T (take), %P (project), %R (tape)")
        }
        if pattern.text.contains("/") {
            throw UsageError("\(setting: .namePattern) \(pattern.text): a take's name is a file name, in \(setting: .record)'s folder: no /")
        }
        let p = timecode.production
        for (field, value, setting) in [("S", p.scene, Setting.scene), ("P", p.project, .project), ("R", p.tape, .tape)]
        where used.contains(Character(field)) {
            guard let value else { throw UsageError("\(setting: .namePattern) \(pattern.text): %\(field) needs \(setting: setting)") }
            if value.contains("/") || value == "." || value == ".." {
                throw UsageError("\(setting: setting) \(value): it goes into the files' names (\(setting: .namePattern) %\(field)), which cannot hold it")
            }
        }
    }

    private func validateUnattended() throws(UsageError) {
        if unattended.eventsPath == "-" && levels.path == "-" {
            throw UsageError("\(setting: .events) - and \(setting: .levels) - would both write to stdout (send one to a file)")
        }
        // A socket that listens on loopback only hears no other machine: the allow-list would
        // admit nobody, silently. The command that works is said instead.
        if let binding = remote.osc, binding.isLoopbackOnly, let network = remote.allowed.first {
            let port = binding.addresses.first?.port ?? 0
            throw UsageError("\(setting: .oscAllow) \(network) admits nobody while \(setting: .osc) listens on this machine only; listen where others reach it: \(setting: .osc) 0.0.0.0:\(port) \(setting: .oscAllow) \(network)")
        }
    }

    private func validateStation() throws(UsageError) {
        if let period = station.splitEvery {
            if recording.splitSeconds != nil { throw UsageError("\(setting: .splitEvery) and \(setting: .split) exclude each other") }
            if let overlap = station.overlapSeconds, overlap > Double(period.seconds) / 2 {
                throw UsageError("\(setting: .overlap) \(overlap.plainText) is more than half of \(setting: .splitEvery) \(period)")
            }
        }
        // Retention deletes earlier files; one file that is never cut has none of its own.
        if station.retention.seconds != nil || station.retention.bytes != nil, !numbersFiles, !armed {
            let limit: Setting = station.retention.seconds != nil ? .keep : .keepSpace
            throw UsageError("\(setting: limit) needs files that are cut (\(setting: .splitEvery), \(setting: .split), \(setting: .reconnect), \(setting: .osc)) or takes")
        }
    }

    private func validateTakes() throws(UsageError) {
        if takes.triggerLevel != nil && takes.followTransport {
            throw UsageError("\(setting: .trigger) and \(setting: .transport) exclude each other")
        }
        guard !armed else {
            if let trigger = takes.triggerLevel, trigger <= 0 { throw UsageError("\(setting: .trigger) must be above silence") }
            if let stop = takes.stopLevel, let trigger = takes.triggerLevel, stop > trigger {
                throw UsageError("\(setting: .stopLevel) must not be above \(setting: .trigger)")
            }
            return
        }
        let unarmed: [(Bool, Setting)] = [(takes.preRollSeconds > 0, .preRoll), (takes.stopAfterSeconds != nil, .stopAfter),
                                          (takes.maximumTakes != nil, .takes)]
        for (given, setting) in unarmed where given {
            throw UsageError("\(setting: setting) needs \(setting: .trigger) or \(setting: .transport)")
        }
    }
}
