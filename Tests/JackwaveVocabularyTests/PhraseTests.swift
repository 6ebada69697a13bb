import JackwaveVocabulary
import Testing

@Suite("Phrase")
struct PhraseTests {
    @Test("a phrase keeps its settings apart from its text, and renders each with the name given")
    func rendersSettings() {
        let line: Phrase = "\(setting: .namePattern) %H.wav: names no hour (see \(setting: .split))"
        #expect(line.parts == [.setting(.namePattern), .text(" %H.wav: names no hour (see "), .setting(.split), .text(")")])
        #expect(line.text(naming: { $0 == .namePattern ? "-n" : "-s" }) == "-n %H.wav: names no hour (see -s)")
        #expect(line.mentions(.split) && !line.mentions(.record))
    }

    @Test("the same words compare equal however they were put together")
    func equalWhateverTheJoins() {
        let count = 3, name = "a.wav"
        let joined: Phrase = "\(name): " + "\(count) markers"
        #expect(joined == "a.wav: 3 markers")
        #expect(Phrase(verbatim: "a.wav: 3 markers") == joined)
        #expect(Phrase(verbatim: "").parts.isEmpty)
    }

    @Test("a phrase inside a phrase brings its settings along")
    func nested() {
        let inner: Phrase = "\(setting: .stream): no password"
        let outer: Phrase = "refused: \(inner)"
        #expect(outer.parts == [.text("refused: "), .setting(.stream), .text(": no password")])
    }
}
