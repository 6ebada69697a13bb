import JackwaveDSP
import Testing

/// Channel `c`, frame `f` of the test signal: every sample distinct, so a misplaced one shows.
private func sample(_ c: Int, _ f: Int) -> Float { Float(c * 100_000 + f) }

@Suite("Interleave")
struct InterleaveTests {
    @Test("interleave then deinterleave gives back every channel, reading from a source offset",
          arguments: [1, 2, 3, 4, 5, 6, 7, 8, 13, 66])
    func interleaveRoundTrip(channels: Int) {
        let offset = 5, frames = 257, total = offset + frames
        let sources: [UnsafeMutablePointer<Float>] = (0..<channels).map { c in
            let p = UnsafeMutablePointer<Float>.allocate(capacity: total)
            for f in 0..<total { p[f] = sample(c, f) }
            return p
        }
        let outputs: [UnsafeMutablePointer<Float>] = (0..<channels).map { _ in
            let p = UnsafeMutablePointer<Float>.allocate(capacity: frames + 3)
            p.initialize(repeating: -1, count: frames + 3)
            return p
        }
        defer { (sources + outputs).forEach { $0.deallocate() } }
        // Four sentinels past the end: a tile that overlaps its neighbour must not run past the block.
        var interleaved = [Float](repeating: .nan, count: channels * frames + 4)

        let readOnly = sources.map { UnsafePointer($0) }
        readOnly.withUnsafeBufferPointer { srcs in
            interleaved.withUnsafeMutableBufferPointer { dst in
                Interleave.interleave(from: srcs.baseAddress!, channels: channels, sourceOffset: offset,
                                      frames: frames, into: dst.baseAddress!)
            }
        }
        // Interleaved layout: frame-major, channel-minor, starting at the source offset.
        var layoutOK = true
        for f in 0..<frames { for c in 0..<channels where interleaved[f * channels + c] != sample(c, f + offset) {
            layoutOK = false
        } }
        #expect(layoutOK)
        #expect(interleaved[(channels * frames)...].allSatisfy { $0.isNaN })

        outputs.withUnsafeBufferPointer { dsts in
            interleaved.withUnsafeBufferPointer { src in
                Interleave.deinterleave(src.baseAddress!, channels: channels, frames: frames,
                                        into: dsts.baseAddress!, destinationOffset: 2)
            }
        }
        for c in 0..<channels {
            let back = Array(UnsafeBufferPointer(start: outputs[c] + 2, count: frames))
            #expect(back == (0..<frames).map { sample(c, $0 + offset) }, "channel \(c)")
            // Nothing written outside the destination range.
            #expect(outputs[c][0] == -1 && outputs[c][1] == -1 && outputs[c][frames + 2] == -1)
        }
    }

    @Test("interleave of zero frames writes nothing", arguments: [1, 2, 3])
    func interleaveZeroFrames(channels: Int) {
        let source: [Float] = [1, 2, 3]
        var out: [Float] = [7, 7, 7]
        source.withUnsafeBufferPointer { s in
            let srcs = [UnsafePointer<Float>](repeating: s.baseAddress!, count: channels)
            srcs.withUnsafeBufferPointer { p in
                out.withUnsafeMutableBufferPointer { o in
                    Interleave.interleave(from: p.baseAddress!, channels: channels, sourceOffset: 0,
                                          frames: 0, into: o.baseAddress!)
                }
            }
        }
        #expect(out == [7, 7, 7])
    }
}
