@testable import JackwavePlot
import JackwaveSoundFiles
import Testing

/// The reference: every frame of the range, one by one, put in the column that
/// ⌊(frame - first) · W / n⌋ names (computed in Double, independently of ColumnGrid).
private func naiveColumns(_ samples: [Float], channels: Int, first: Int64, count: Int64, columns: Int) -> [[ColumnStats]] {
    var result = Array(repeating: Array(repeating: ColumnStats(), count: columns), count: channels)
    for frame in first..<(first + count) {
        let c = Int((Double(frame - first) * Double(columns) / Double(count)).rounded(.down))
        for ch in 0..<channels {
            let x = samples[Int(frame) * channels + ch]
            result[ch][c].min = min(result[ch][c].min, x)
            result[ch][c].max = max(result[ch][c].max, x)
            result[ch][c].sumSquares += Double(x) * Double(x)
            result[ch][c].count += 1
            result[ch][c].last = x
        }
    }
    return result
}

/// Feeds `samples` to a reducer in chunks of `chunk` frames, all of the file from frame 0.
private func reduced(_ samples: [Float], channels: Int, grid: ColumnGrid, chunk: Int) -> WaveColumns {
    var reducer = ColumnReducer(grid: grid, channels: channels)
    let frames = samples.count / channels
    samples.withUnsafeBufferPointer { p in
        var start = 0
        while start < frames {
            let n = min(chunk, frames - start)
            reducer.consume(p.baseAddress! + start * channels, frames: n, startingAt: Int64(start))
            start += n
        }
    }
    return reducer.columns
}

/// Every column of every channel equal to the reference: extremes, counts and the last
/// sample exactly, the RMS to float rounding.
private func expectMatches(_ got: WaveColumns, _ want: [[ColumnStats]]) {
    guard want.allSatisfy({ $0.count <= got.grid.columns }), want.count * got.grid.columns <= got.stats.count else {
        Issue.record("got \(got.channels) channels of \(got.grid.columns) columns (\(got.stats.count) stats), want \(want.map(\.count))")
        return
    }
    var mismatches = 0
    for ch in want.indices {
        for c in want[ch].indices {
            let g = got[ch, c], w = want[ch][c]
            let rmsClose = abs(g.rms - w.rms) <= 2e-6 * max(1, w.rms)
            if g.count != w.count || (w.count > 0 && (g.min != w.min || g.max != w.max || g.last != w.last || !rmsClose)) {
                mismatches += 1
                if mismatches <= 3 { Issue.record("channel \(ch) column \(c): got \(g), want \(w)") }
            }
        }
    }
    #expect(mismatches == 0)
}

private func noise(_ count: Int, seed: UInt64) -> [Float] {
    var n = Noise(seed: seed)
    return (0..<count).map { _ in n.next() }
}

@Test("2^47 frames in the widest picture's columns tile exactly, without overflowing")
func widestGridOfLongestFile() {
    // The most frames a file may claim (`SoundFileHeaderCheck.maximumFrames`), from its first.
    let n: Int64 = 1 << 47, w = PlotOptions.widthRange.upperBound
    let grid = ColumnGrid(firstFrame: 0, frameCount: n, columns: w)
    #expect(grid.firstFrame(ofColumn: w) == n)
    #expect(grid.firstFrame(ofColumn: w / 2) == n / 2)
    #expect(grid.column(ofFrame: n - 1) == w - 1)
    #expect(grid.column(ofFrame: n / 2) == w / 2)
}

@Test("a file shorter than the plot is wide leaves columns empty and puts each frame in its own column")
func shorterThanWidth() {
    let channels = 2, frames = 100, columns = 300
    let samples = noise(frames * channels, seed: 1)
    let grid = ColumnGrid(firstFrame: 0, frameCount: Int64(frames), columns: columns)
    let got = reduced(samples, channels: channels, grid: grid, chunk: 7)
    expectMatches(got, naiveColumns(samples, channels: channels, first: 0, count: Int64(frames), columns: columns))
    #expect((0..<columns).filter { !got[0, $0].isEmpty }.count == frames)
}

@Test("a file much longer than the plot is wide matches the per-column reference on the SIMD path")
func longerThanWidthStereo() {
    let channels = 2, frames = 200_003, columns = 333
    let samples = noise(frames * channels, seed: 2)
    let grid = ColumnGrid(firstFrame: 0, frameCount: Int64(frames), columns: columns)
    expectMatches(reduced(samples, channels: channels, grid: grid, chunk: 65536),
                  naiveColumns(samples, channels: channels, first: 0, count: Int64(frames), columns: columns))
}

@Test("three channels take the scalar path and match the per-column reference")
func threeChannels() {
    let channels = 3, frames = 50_017, columns = 211
    let samples = noise(frames * channels, seed: 3)
    let grid = ColumnGrid(firstFrame: 0, frameCount: Int64(frames), columns: columns)
    expectMatches(reduced(samples, channels: channels, grid: grid, chunk: 4096),
                  naiveColumns(samples, channels: channels, first: 0, count: Int64(frames), columns: columns))
}

@Test("a zoom range that starts and ends off the column and chunk boundaries matches the reference")
func zoomRange() {
    let channels = 1, frames = 120_000, columns = 97
    let samples = noise(frames * channels, seed: 4)
    let first: Int64 = 12_345, count: Int64 = 50_001
    let grid = ColumnGrid(firstFrame: first, frameCount: count, columns: columns)
    let got = reduced(samples, channels: channels, grid: grid, chunk: 4097)
    expectMatches(got, naiveColumns(samples, channels: channels, first: first, count: count, columns: columns))
    #expect((0..<columns).reduce(Int64(0)) { $0 + got[0, $1].count } == count)
}

@Test("a single-sample spike between two column boundaries shows in exactly one column")
func spikeIsNeverLost() {
    var samples = [Float](repeating: 0.01, count: 10_000)
    samples[5_001] = 0.97
    samples[7_777] = -0.99
    let grid = ColumnGrid(firstFrame: 0, frameCount: 10_000, columns: 7)
    let got = reduced(samples, channels: 1, grid: grid, chunk: 333)
    #expect((0..<7).filter { got[0, $0].max == 0.97 }.count == 1)
    #expect((0..<7).filter { got[0, $0].min == -0.99 }.count == 1)
}

@Test("the streaming pass over a WAV file matches the reference for a zoomed range")
func fromFile() throws {
    let scratch = try Scratch()
    let channels = 2, rate = 8000, frames = 30_000, columns = 250
    let samples = noise(frames * channels, seed: 5)
    let path = try scratch.wav("noise.wav", samples, channels: channels, sampleRate: rate)
    let file = try SoundFile(readingFrom: path)
    let grid = ColumnGrid(firstFrame: 1_001, frameCount: 27_777, columns: columns)
    let got = SoundFileReading.columns(of: file, grid: grid, chunkFrames: 1000)
    expectMatches(got, naiveColumns(samples, channels: channels, first: 1_001, count: 27_777, columns: columns))
}

@Test("a column of one repeated value has that value as min, max and RMS")
func constantColumn() {
    let samples = [Float](repeating: -0.25, count: 1000)
    let got = reduced(samples, channels: 1, grid: ColumnGrid(firstFrame: 0, frameCount: 1000, columns: 4), chunk: 1000)
    #expect(got[0, 2].min == -0.25)
    #expect(got[0, 2].max == -0.25)
    #expect(abs(got[0, 2].rms - 0.25) < 1e-7)
    #expect(got[0, 2].count == 250)
}
