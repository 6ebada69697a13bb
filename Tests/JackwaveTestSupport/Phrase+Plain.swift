import JackwaveVocabulary

extension Phrase {
    /// The line as the tests below the command line read it: each setting as `‹case›`
    /// (`‹stream›: …`), since only the CLI spells settings as options.
    public var plain: String { text(naming: { "‹\($0)›" }) }
}
