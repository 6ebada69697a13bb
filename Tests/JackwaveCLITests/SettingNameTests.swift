@testable import JackwaveCLI
import JackwaveVocabulary
import Testing

/// The modules below the command line point at settings; the command line spells them.
@Suite("Settings spelt as options")
struct SettingNameTests {
    @Test("every setting is spelt as an option that a command declares", arguments: Setting.allCases)
    func spelt(setting: Setting) {
        let declared = Set(DeclaredCommand.all.flatMap { $0.options.flatMap(\.names) })
        #expect(declared.contains(setting.option), "\(setting) is spelt \(setting.option), which no command declares")
    }

    @Test("a line from below is rendered with its settings' option names, its text as it was")
    func rendered() {
        let line: Phrase = "\(setting: .record) take.wav: file exists (use \(setting: .force) to overwrite it)"
        #expect(line.line == "--record take.wav: file exists (use --force to overwrite it)")
    }
}
