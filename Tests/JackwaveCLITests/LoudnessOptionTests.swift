@testable import JackwaveCLI
import Testing

/// `--loudness` and `--target` on the main command's line.
@Suite("Loudness options")
struct LoudnessOptionTests {
    @Test("--loudness turns the live loudness on with a target of −23 LUFS")
    func defaults() throws {
        let o = try RunOptionsParser.parse(["--loudness"])
        #expect(o.levels.loudness && o.levels.targetLoudness == -23)
        #expect(try !RunOptionsParser.parse([]).levels.loudness)
    }

    @Test("--target takes a negative LUFS value, spelled apart or with =")
    func target() throws {
        #expect(try RunOptionsParser.parse(["--loudness", "--target", "-14"]).levels.targetLoudness == -14)
        #expect(try RunOptionsParser.parse(["--loudness", "--target=-16.5"]).levels.targetLoudness == -16.5)
    }

    static let refusals: [Refusal] = [
        Refusal("a target without --loudness", ["--target", "-14"], "--target needs --loudness"),
        Refusal("a target above 0 LUFS", ["--loudness", "--target", "3"], "--target: LUFS must be between -60 and 0, not 3"),
        Refusal("a target below -60 LUFS", ["--loudness", "--target", "-80"], "--target: LUFS must be between -60 and 0, not -80"),
        Refusal("a target that is no number", ["--loudness", "--target", "loud"], "--target: 'loud' is not a number"),
        Refusal("a value given to the flag", ["--loudness=yes"], "--loudness takes no value"),
    ]

    @Test("a bad --target or --loudness is refused with one line", arguments: refusals)
    func refused(_ r: Refusal) {
        #expect(r.actual == r.message)
    }
}
