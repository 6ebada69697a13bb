/// Sound files the tests make.
public enum TestFiles {
    /// The bytes of a 16-bit WAV of `channels` at 48 kHz whose data chunk claims `frames` and
    /// holds `bytes` of zeros: a header that may lie about its data.
    public static func wav(channels: Int, frames: Int, holding bytes: Int) -> [UInt8] {
        func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 0xff) } }
        func le16(_ v: Int) -> [UInt8] { (0..<2).map { UInt8((v >> (8 * $0)) & 0xff) } }
        let block = channels * 2
        let fmt = le16(1) + le16(channels) + le32(48000) + le32(48000 * block) + le16(block) + le16(16)
        let body = Array("WAVEfmt ".utf8) + le32(fmt.count) + fmt + Array("data".utf8) + le32(frames * block)
            + [UInt8](repeating: 0, count: bytes)
        return Array("RIFF".utf8) + le32(body.count) + body
    }
}
