import JackwaveSoundFiles

/// The frame numbers a mono file holds, where each sample was its frame's number in millionths
/// (the counting signal these tests record); -1 for a NaN or an infinity.
func frameNumbers(_ path: String) throws -> [Int] {
    let file = try SoundFile(readingFrom: path)
    var buffer = [Float](repeating: 0, count: Int(file.frames))
    _ = buffer.withUnsafeMutableBufferPointer { b in b.baseAddress.map { file.read(into: $0, count: b.count) } }
    return buffer.map { Int(exactly: ($0 * 1_000_000).rounded()) ?? -1 }
}
