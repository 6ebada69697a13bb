import JackwaveSoundFiles

/// Every channel's weight, and whether the file said so or jackwave assumed it.
public struct ChannelWeighting: Equatable, Sendable {
    /// Where the weights came from.
    public enum Source: String, Equatable, Sendable {
        /// The file names each channel's position (a WAVE_FORMAT_EXTENSIBLE mask, a CAF layout).
        case file
        /// Mono or stereo with no positions: BS.1770 weighs either 1.0 per channel, so there
        /// is nothing to assume.
        case monoOrStereo = "mono-or-stereo"
        /// Three or more channels and no positions: every channel weighted 1.0 (no LFE left
        /// out, no surround raised), as a JACK recorder's inputs are usually separate sources.
        case assumed
    }

    public let weights: [ChannelWeight]
    public let source: Source

    public init(weights: [ChannelWeight], source: Source) {
        self.weights = weights
        self.source = source
    }

    /// The weights for a file of `channels` channels at `positions` (nil: the file names none).
    /// An unlabelled multichannel file is not taken for 5.1 (libebur128's own default, which
    /// drops the fourth channel as LFE): every channel counts 1.0 instead.
    public init(channels: Int, positions: [ChannelPosition]?) {
        if let positions, positions.count == channels {
            self.init(weights: positions.map(Self.weight(of:)), source: .file)
        } else {
            self.init(weights: Array(repeating: .front, count: channels),
                      source: channels <= 2 ? .monoOrStereo : .assumed)
        }
    }

    /// A channel's weight from its position.
    static func weight(of position: ChannelPosition) -> ChannelWeight {
        switch position {
        case .front, .rearCenter: .front
        case .surround: .surround
        case .lowFrequencyEffects: .excluded
        }
    }

    /// Whether people should be told how the channels were weighted: an assumption, or
    /// weights other than 1.0.
    public var isNoteworthy: Bool { source == .assumed || weights.contains { $0 != .front } }

    /// One line for people: `2 channels, weighted 1.0 each` or the file's surround and LFE.
    public var summary: String {
        let n = weights.count
        switch source {
        case .monoOrStereo:
            return n == 1 ? "1 channel" : "\(n) channels, weighted 1.0 each"
        case .assumed:
            return "\(n) channels, the file names no positions: assumed weighted 1.0 each (no LFE, no surround)"
        case .file:
            let surround = weights.filter { $0 == .surround }.count
            let lfe = weights.filter { $0 == .excluded }.count
            var parts = ["\(n) channels as the file places them"]
            if surround > 0 { parts.append("\(surround) surround +1.5 dB") }
            if lfe > 0 { parts.append("\(lfe) LFE left out") }
            return parts.joined(separator: ", ")
        }
    }
}
