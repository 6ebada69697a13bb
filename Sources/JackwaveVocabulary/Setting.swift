/// A setting a user gives jackwave, as the modules below the command line refer to it.
///
/// Only the command line knows which option spells each one (`--name-pattern` for
/// `.namePattern`): a message from below points at the setting, and the command line names
/// it. Renaming an option is then a change to the command line alone.
public enum Setting: CaseIterable, Sendable {
    // A run's files
    case record, format, bits, rate, split, force, buffer, channels, quality
    case levels, plot, events
    // The station logger
    case splitEvery, namePattern, overlap, keep, keepSpace, stream, streamCertificateAuthorities, streamQuality, streamPasswordFile
    // Ports
    case manual, port, to, clientName
    // Takes and tone
    case preRoll, trigger, transport, stopLevel, stopAfter, takes, tone, loudness
    // MIDI
    case midi, midiPort, mmc, midiMarker
    // Timecode and production metadata
    case ltc, project, scene, take, tape, note
    // Unattended
    case onEvent, onClose, reconnect, osc, oscAllow
    // `jackwave plot`
    case plotWidth, plotHeight, plotStart, plotEnd, plotMidi
    // Asking rather than running
    case listFormats
    // The offline commands' output, and `measure`'s report
    case output, json
}
