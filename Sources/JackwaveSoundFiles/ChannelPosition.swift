import CSndfile

/// Where a file says one of its channels is meant to be heard, as far as loudness
/// weighting (ITU-R BS.1770) cares: a front or height channel, a surround channel beside or
/// behind the listener, or the low-frequency effects channel.
public enum ChannelPosition: Equatable, Sendable {
    /// Mono, left, right, centre, the front pair beside the centre, height and ambisonic
    /// channels: weighted 1.0 by BS.1770.
    case front
    /// Rear and side left/right: weighted 1.41 (+1.5 dB) by BS.1770.
    case surround
    /// Behind the listener, in the middle: BS.1770 weights it 1.0 like the front.
    case rearCenter
    /// The low-frequency effects channel, which BS.1770 leaves out.
    case lowFrequencyEffects

    /// The position of libsndfile's `SF_CHANNEL_MAP_*` value; nil for `INVALID` (the file
    /// names no position for that channel).
    init?(channelMapValue value: Int32) {
        switch value {
        case Int32(SF_CHANNEL_MAP_INVALID): return nil
        case Int32(SF_CHANNEL_MAP_REAR_LEFT), Int32(SF_CHANNEL_MAP_REAR_RIGHT),
             Int32(SF_CHANNEL_MAP_SIDE_LEFT), Int32(SF_CHANNEL_MAP_SIDE_RIGHT):
            self = .surround
        case Int32(SF_CHANNEL_MAP_REAR_CENTER): self = .rearCenter
        case Int32(SF_CHANNEL_MAP_LFE): self = .lowFrequencyEffects
        default:
            guard value > 0 && value < Int32(SF_CHANNEL_MAP_MAX) else { return nil }
            self = .front
        }
    }
}
