/// A titled group of a command's options (`Recording`), in the order its help lists them,
/// with lines of notes printed after them (the tone's keys).
struct OptionSection<Options>: Sendable {
    let title: String
    let options: [OptionDeclaration<Options>]
    let notes: [String]

    init(_ title: String, _ options: [OptionDeclaration<Options>], notes: [String] = []) {
        self.title = title
        self.options = options
        self.notes = notes
    }
}
