import CSndfile

/// The channel positions jackwave states in a recording of separate inputs (`--record`),
/// so that no reader takes an input for a loudspeaker feed it is not.
///
/// Left alone, libsndfile gives a WAVE_FORMAT_EXTENSIBLE file of 3 to 8 channels the mask
/// of a common layout: 4 channels quad, 6 channels 5.1, 8 channels 7.1. A 6-input recording
/// then says its fourth input is the LFE, which loudness meters leave out, and its fifth and
/// sixth are surrounds, which they weight +1.5 dB. "No position" cannot be written (libsndfile
/// refuses an unplaced map and falls back to that mask), so each channel is named by a
/// distinct position that BS.1770 weights 1.0 — the fronts, the fronts beside the centre,
/// the rear centre and the heights — in the mask's order, as the format requires. One or two
/// channels keep libsndfile's mono and stereo; above 8 it writes no mask, and so says
/// nothing wrong.
public enum SeparateInputsLayout {
    /// Positions weighted 1.0 by BS.1770, in WAVE_FORMAT_EXTENSIBLE mask-bit order (LFE,
    /// the rear and side pairs left out).
    static let neutralPositions: [Int32] = [Int](arrayLiteral:
        // libsndfile's WAVE_FORMAT_EXTENSIBLE table names the first three LEFT, RIGHT and
        // CENTER (its FRONT_* values are refused there).
        SF_CHANNEL_MAP_LEFT, SF_CHANNEL_MAP_RIGHT, SF_CHANNEL_MAP_CENTER,
        SF_CHANNEL_MAP_FRONT_LEFT_OF_CENTER, SF_CHANNEL_MAP_FRONT_RIGHT_OF_CENTER, SF_CHANNEL_MAP_REAR_CENTER,
        SF_CHANNEL_MAP_TOP_CENTER, SF_CHANNEL_MAP_TOP_FRONT_LEFT,
    ).map { Int32($0) }

    /// The map for `channels` separate inputs in a file of libsndfile format `format`, or nil
    /// where libsndfile's own says nothing wrong: 1, 2 or more than 8 channels, or a container
    /// other than WAV, WAVE_FORMAT_EXTENSIBLE and RF64 (the ones it gives a default mask).
    public static func channelMap(channels: Int, format: Int32) -> [Int32]? {
        let container = Int(format) & Int(SF_FORMAT_TYPEMASK)
        let withMasks: [Int] = [Int(SF_FORMAT_WAV), Int(SF_FORMAT_WAVEX), Int(SF_FORMAT_RF64)]
        guard withMasks.contains(container),
              (3...8).contains(channels) else { return nil }
        return Array(neutralPositions.prefix(channels))
    }
}
