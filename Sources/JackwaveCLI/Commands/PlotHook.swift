import JackwavePlot

/// `--plot OUT` after `--record`: draws the finalized recording with default settings.
/// OUT was checked (extension, directory, `--force`) before the recording started.
enum PlotHook {
    /// 0 drawn (one line names the picture), 1 with one error line otherwise.
    static func plotAfterRecording(recording: String, output: String) -> Int32 {
        do throws(PlotError) {
            try Plot.draw(recording, to: output)
            Console.say("plot: \(output)")
            return 0
        } catch {
            Console.error("--plot: \(error.message)")
            return 1
        }
    }
}
