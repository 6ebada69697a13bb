import JackwaveVocabulary

extension Setting {
    /// The option that gives this setting: the one place a `Setting` is spelt.
    var option: String {
        switch self {
        case .record: "--record"
        case .format: "--format"
        case .bits: "--bits"
        case .rate: "--rate"
        case .split: "--split"
        case .force: "--force"
        case .buffer: "--buffer"
        case .channels: "--channels"
        case .quality: "--quality"
        case .levels: "--levels"
        case .plot: "--plot"
        case .events: "--events"
        case .namePattern: "--name-pattern"
        case .overlap: "--overlap"
        case .keep: "--keep"
        case .keepSpace: "--keep-space"
        case .stream: "--stream"
        case .streamCertificateAuthorities: "--stream-ca"
        case .streamQuality: "--stream-quality"
        case .streamPasswordFile: "--stream-password-file"
        case .manual: "--manual"
        case .port: "--port"
        case .to: "--to"
        case .clientName: "--name"
        case .preRoll: "--pre-roll"
        case .trigger: "--trigger"
        case .transport: "--transport"
        case .stopLevel: "--stop-level"
        case .stopAfter: "--stop-after"
        case .takes: "--takes"
        case .splitEvery: "--split-every"
        case .reconnect: "--reconnect"
        case .tone: "--tone"
        case .loudness: "--loudness"
        case .midi: "--midi"
        case .midiPort: "--midi-port"
        case .mmc: "--mmc"
        case .midiMarker: "--midi-marker"
        case .ltc: "--ltc"
        case .project: "--project"
        case .scene: "--scene"
        case .take: "--take"
        case .tape: "--tape"
        case .note: "--note"
        case .onEvent: "--on-event"
        case .onClose: "--on-close"
        case .osc: "--osc"
        case .oscAllow: "--osc-allow"
        case .plotWidth: "--width"
        case .plotHeight: "--height"
        case .plotStart: "--start"
        case .plotEnd: "--end"
        case .plotMidi: "--midi"
        case .listFormats: "--formats"
        case .output: "-o"
        case .json: "--json"
        }
    }
}

extension Phrase {
    /// The line for the user, each setting spelt as its option.
    var line: String { text(naming: \.option) }
}
