import JackwaveHost
import JackwaveLoudness
import JackwaveRunSupport
import JackwaveSoundFiles

/// `jackwave loudness FILE…`: each file's integrated loudness, loudness range, maximum
/// momentary and short-term loudness, true and sample peak (EBU R 128, ITU-R BS.1770), as
/// aligned text or JSON; several files get a table and the loudness of all of them as one
/// programme. It only reads: every file is checked before any is measured, so bad input is
/// one line and exit 2 with nothing printed on stdout.
enum LoudnessCommand {
    /// The parsed command line.
    struct Options: Equatable {
        var inputs: [String] = []
        var json = false
    }

    /// One measured file.
    struct Measured {
        let path: String
        let summary: LoudnessSummary
        let analyzer: LoudnessAnalyzer
    }

    static func run(_ arguments: [String]) -> Int32 {
        let o: Options
        let opening = commandLine.open(arguments) { () throws(UsageError) in
            let o = try parse(arguments)
            for path in o.inputs { try check(path) }
            return o
        }
        switch opening {
        case let .exit(status): return status
        case let .proceed(options): o = options
        }
        guard let measured = measure(o.inputs) else { return 1 }
        return Console.write(report(measured, json: o.json), to: 1) ? 0 : 1
    }

    /// Each file measured, in order; nil (and one line said) if one could no longer be read.
    static func measure(_ paths: [String]) -> [Measured]? {
        var measured: [Measured] = []
        for path in paths {
            // Checked before; a file that changed since is a runtime failure.
            guard let file = try? SoundFile(readingFrom: path), let result = FileLoudness.measure(file) else {
                Console.error("loudness: \(path): could no longer be read")
                return nil
            }
            file.close()
            measured.append(Measured(path: path, summary: result.summary, analyzer: result.analyzer))
        }
        return measured
    }

    /// The text or JSON report of `measured` files, with their overall loudness.
    static func report(_ measured: [Measured], json: Bool) -> String {
        let overall = LoudnessAnalyzer.integrated(of: measured.map(\.analyzer))
        return json ? LoudnessReport.json(measured, overall: overall) : LoudnessReport.text(measured, overall: overall)
    }

    /// Refuses, in one line, a file libsndfile cannot read or libebur128 cannot measure.
    static func check(_ path: String) throws(UsageError) {
        let file: SoundFile
        do throws(SoundFileError) {
            file = try SoundFile(readingFrom: path)
        } catch {
            throw UsageError("loudness: \(error.message)")
        }
        defer { file.close() }
        let weighting = ChannelWeighting(channels: file.channels, positions: nil)
        guard file.channels > 0, LoudnessAnalyzer(sampleRate: file.sampleRate, weighting: weighting) != nil else {
            throw UsageError("loudness: \(path): cannot measure \(file.channels) channels at \(file.sampleRate) Hz")
        }
    }
}
