import JackwaveLoudness
import JackwaveSoundFiles

/// A sound file's loudness curves (`plot FILE --loudness`): one pass of libebur128 through
/// `LoudnessAnalyzer`, read every 100 ms (the rate the live stream has).
enum FileLoudnessCurves {
    /// Points per second.
    static let pointsPerSecond = 10

    /// The curves of `file` from its start up to frame `last` (a point at each 100-ms mark
    /// and one at `last`), weighted as `jackwave loudness` weighs the file; nil if
    /// libebur128 refuses its channels or rate. Reads from the file's start (a point's
    /// value depends on the 3 s before it) and leaves the file's position at `last`.
    static func measure(_ file: SoundFile, upTo last: Int64) -> LoudnessCurves? {
        let weighting = ChannelWeighting(channels: file.channels, positions: file.channelPositions)
        guard let analyzer = LoudnessAnalyzer(sampleRate: file.sampleRate, weighting: weighting, truePeak: false),
              file.seek(toFrame: 0) else { return nil }
        let step = max(1, file.sampleRate / pointsPerSecond)
        let chunk = file.framesPerRead(upTo: step)
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: chunk * file.channels)
        defer { buffer.deallocate() }
        var times: [Double] = [], m: [Double] = [], s: [Double] = []
        var done: Int64 = 0
        while done < last {
            // One point's frames, in reads of at most `chunk`.
            let point = min(Int64(step), last - done)
            var read: Int64 = 0
            while read < point {
                let got = file.read(into: buffer, count: Int(min(Int64(chunk), point - read)))
                if got <= 0 { break }
                analyzer.add(buffer, count: got)
                read += Int64(got)
            }
            if read == 0 { break }
            done += read
            times.append(Double(done) / Double(file.sampleRate))
            m.append(analyzer.momentary)
            s.append(analyzer.shortTerm)
        }
        let integrated = analyzer.integrated
        return LoudnessCurves(times: times, momentary: m, shortTerm: s, integrated: integrated.isFinite ? integrated : nil)
    }
}
