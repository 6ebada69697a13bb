extension StringProtocol {
    /// Without the spaces and tabs (any blank but a line break) at either end: what
    /// Foundation's `trimmingCharacters(in: .whitespaces)` did, without Foundation.
    public func trimmingBlanks() -> String {
        let isBlank = { (c: Character) in c.isWhitespace && !c.isNewline }
        return String(drop(while: isBlank).reversed().drop(while: isBlank).reversed())
    }
}
