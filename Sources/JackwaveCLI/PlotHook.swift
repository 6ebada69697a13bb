/// `--plot` after `--record`: draws the finalized recording.
enum PlotHook {
    static func plotAfterRecording(recording: String, output: String) -> Int32 {
        Console.error("--plot is not available yet")
        return 1
    }
}
