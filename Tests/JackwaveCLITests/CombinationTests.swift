@testable import JackwaveCLI
import JackwaveHost
import JackwaveRunSupport
import Testing

/// Every option works with every other: the pairs once refused "not yet supported together"
/// parse now, and only true contradictions are refused.
@Suite("Option combinations")
struct CombinationTests {
    /// The sixteen pairs refused before one run was built in one place (issue 21).
    static let formerlyRefused: [[String]] = [
        ["--trigger", "-30dB", "--reconnect"], ["--transport", "--reconnect"],
        ["--trigger", "-30dB", "--osc", "9000"], ["--transport", "--osc", "9000"],
        ["--trigger", "-30dB", "--split", "60"], ["--transport", "--split", "60"],
        ["--trigger", "-30dB", "--rate", "44100"], ["--transport", "--rate", "44100"],
        ["--trigger", "-30dB", "--plot", "t.png"], ["--transport", "--plot", "t.png"],
        ["--loudness", "--reconnect"], ["--loudness", "--trigger", "-30dB"], ["--loudness", "--transport"],
        ["--levels", "t.csv", "--reconnect"], ["--plot", "t.png", "--reconnect"], ["--plot", "t.png", "--split", "60"],
    ]

    @Test("a pair once refused parses with --record", arguments: formerlyRefused)
    func accepted(_ pair: [String]) throws {
        let o = try RunOptionsParser.parse(["--record", "t.wav"] + pair)
        #expect(o.records)
    }

    @Test("what truly contradicts is still refused, in one line",
          arguments: [(["--manual", "-p", "a"], "--manual and --port exclude each other"),
                      (["--manual", "-t", "a"], "--manual and --to exclude each other"),
                      (["--trigger", "0.1", "--transport"], "--trigger and --transport exclude each other"),
                      (["--events", "-", "--levels", "-"],
                       "--events - and --levels - would both write to stdout (send one to a file)")])
    func contradictions(_ extra: [String], message: String) {
        do throws(UsageError) {
            _ = try RunOptionsParser.parse(["--record", "t.wav"] + extra)
            Issue.record("accepted: no \(message)")
        } catch {
            #expect(error.message.line == message)
        }
    }
}
