import CSndfile

/// The channel positions stated in a recording of separate inputs (`--record`), so that no
/// reader takes an input for a loudspeaker feed. Left alone, libsndfile gives 3 to 8
/// channels a common layout's mask: 6 inputs would read as 5.1, the fourth an LFE that
/// meters leave out. "No position" cannot be written, so each channel gets a distinct
/// position BS.1770 weights 1.0, in the mask's order. 1, 2 and more than 8 channels keep
/// libsndfile's, which says nothing wrong.
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
