import JackwaveAnalysis
import JackwaveDSP
import JackwaveLevelStream
import JackwaveRunSupport
import JackwaveSoundFiles

/// `jackwave levels FILE`: a sound file's level stream, computed offline with the live
/// path's own pieces (`Interleave.deinterleave`, `Peak.of`, `LevelAggregator`,
/// `DropoutDetector` and `DropoutRowCounter`, `LevelStreamFormatter`), block by block from
/// frame 0, the block standing for the JACK period (a repeated period is a dropout). With
/// `--block` equal to the JACK period of a live recording, its output is byte for byte the
/// recording's live `--levels`, dropout counts included.
enum LevelsCommand {
    /// 1024 frames: jackd's own default period, so without `--block` the offline stream
    /// lines up with a recording made on a server left at its defaults.
    static let defaultBlock = 1024
    /// Largest `--block`: far beyond any JACK period, small enough that its buffers
    /// (block × channels × 8 bytes) stay modest.
    static let maximumBlock = 1 << 20
    /// Rows are written out whenever this much text is waiting, and at the end.
    static let flushBytes = 1 << 16

    /// The parsed command line.
    struct Options: Equatable {
        var input = ""
        var block = LevelsCommand.defaultBlock
        var intervalMilliseconds: Double?
        var output = "-"
        var format: LevelStreamFormat?
        var force = false
    }

    static func run(_ arguments: [String]) -> Int32 {
        let o: Options
        switch commandLine.open(arguments, { () throws(UsageError) in try parse(arguments) }) {
        case let .exit(status): return status
        case let .proceed(options): o = options
        }
        // Every check that can fail as bad usage comes before the output is created.
        let file: SoundFile
        do throws(SoundFileError) {
            file = try SoundFile(readingFrom: o.input)
        } catch {
            Console.error("levels: \(error.message)")
            return 2
        }
        defer { file.close() }
        guard file.channels > 0, file.sampleRate > 0 else {
            Console.error("levels: \(o.input): no channels or no sample rate")
            return 2
        }
        // A level stream holds finite levels (nan is a row without a reading, and plot
        // refuses inf): a float file's NaN or infinite sample is bad input, found before the
        // output is made (a second read, of float and double files only).
        if let bad = file.firstNonFiniteSample() {
            Console.error("levels: \(o.input) frame \(bad.frame): a sample that is not a finite number (\(bad.value)), which no level can say")
            return 2
        }
        if o.output != "-" {
            do throws(UsageError) {
                try OutputPath.check(o.output, force: o.force, option: .output)
            } catch {
                Console.error(error.message)
                return 2
            }
        }
        var formatter = LevelStreamFormatter(
            format: LevelStreamFormat.forPath(o.output, explicit: o.format),
            sampleRate: file.sampleRate, channelNames: (1...file.channels).map { "in_\($0)" })
        formatter.dropoutColumn = true
        let writer: LevelStreamWriter
        do throws(LevelStreamError) {
            writer = try LevelStreamWriter(path: o.output, formatter: formatter, policy: o.force ? .replace : .new, option: .output)
        } catch {
            Console.error(error.message)
            return 1
        }
        var aggregator = LevelAggregator(
            channels: file.channels,
            intervalFrames: o.intervalMilliseconds.map {
                LevelAggregator.intervalFrames(milliseconds: $0, sampleRate: file.sampleRate)
            })
        if let failure = stream(file, blockFrames: o.block, aggregator: &aggregator, to: writer) ?? writer.close() {
            Console.error(failure)
            return 1
        }
        return 0
    }

    /// Reads `file` to the end in blocks of `blockFrames` (the last may be shorter), feeds
    /// each block's per-channel peaks to the aggregator and its frames to the dropout
    /// detector, and the rows to the writer once the detector has passed their end.
    /// Returns the writer's failure, if any.
    static func stream(_ file: SoundFile, blockFrames n: Int, aggregator: inout LevelAggregator,
                       to writer: LevelStreamWriter) -> String? {
        let channels = file.channels
        let interleaved = UnsafeMutablePointer<Float>.allocate(capacity: n * channels)
        let planes = UnsafeMutablePointer<UnsafeMutablePointer<Float>>.allocate(capacity: channels)
        for c in 0..<channels { (planes + c).initialize(to: .allocate(capacity: n)) }
        defer {
            for c in 0..<channels { planes[c].deallocate() }
            planes.deallocate()
            interleaved.deallocate()
        }
        var peaks = [Float](repeating: 0, count: channels)
        var rows: [LevelRow] = []
        var frame: Int64 = 0
        var detector = DropoutDetector(channels: channels, thresholds: .default(sampleRate: file.sampleRate, period: n),
                                       listLimit: 0)
        var dropouts = DropoutRowCounter()
        let interval = aggregator.intervalFrames.map(Int64.init)
        // Rows wait here, with their ends, until the detector has passed them.
        var held: [(row: LevelRow, end: Int64)] = []
        func release(upTo settled: Int64) {
            let ready = held.prefix { $0.end <= settled }.count
            guard ready > 0 else { return }
            writer.append(held.prefix(ready).map { row, end in
                var counted = row
                counted.dropouts = dropouts.take(before: end)
                return counted
            })
            held.removeFirst(ready)
        }
        while true {
            // Fill the whole block, so a short read never shifts the block grid.
            var got = 0
            while got < n {
                let r = file.read(into: interleaved + got * channels, count: n - got)
                if r <= 0 { break }
                got += r
            }
            if got == 0 { break }
            Interleave.deinterleave(interleaved, channels: channels, frames: got, into: planes)
            for c in 0..<channels { peaks[c] = Peak.of(planes[c], count: got) }
            let found = detector.feed(UnsafeBufferPointer(start: interleaved, count: got * channels), frames: got)
            dropouts.add(found.map(\.frame))
            aggregator.add(startFrame: frame, frameCount: got, peaks: peaks, into: &rows)
            frame += Int64(got)
            held += rows.map { row in (row, min(frame, interval.map { row.frame + $0 } ?? frame)) }
            rows.removeAll(keepingCapacity: true)
            release(upTo: detector.settledFrame)
            if writer.pendingCount >= flushBytes, let failure = writer.flush() { return failure }
            if got < n { break }
        }
        aggregator.finish(into: &rows)
        held += rows.map { ($0, .max) }
        release(upTo: .max)
        return writer.flush()
    }
}
