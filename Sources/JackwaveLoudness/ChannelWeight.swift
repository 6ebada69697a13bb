import CEbur128

/// How one channel counts towards loudness (ITU-R BS.1770's channel weights, as libebur128
/// applies them).
public enum ChannelWeight: Equatable, Sendable {
    /// Weight 1.0: mono, left, right, centre, and any channel of unknown position.
    case front
    /// Weight 1.41 (+1.5 dB): the surround channels beside and behind the listener.
    case surround
    /// Left out: the low-frequency effects channel.
    case excluded

    /// libebur128's channel for this weight: it weighs `LEFT` 1.0, `LEFT_SURROUND` (M+110)
    /// 1.41 and ignores `UNUSED`; which side is irrelevant to the sum.
    var ebur128Channel: channel {
        switch self {
        case .front: EBUR128_LEFT
        case .surround: EBUR128_LEFT_SURROUND
        case .excluded: EBUR128_UNUSED
        }
    }
}
