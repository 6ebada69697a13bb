// Statistics and look-ups over what a run produced, total: a bad run can leave any list
// empty or short, and a trap there kills the whole test process, so that every suite after
// it never runs and the log ends in a backtrace. Each returns nil instead, and the caller
// unwraps it with `try #require(…, "what was seen")`, which fails that test alone.

extension Collection {
    /// The element at `index`, or nil when there is none.
    public func element(at index: Index) -> Element? { indices.contains(index) ? self[index] : nil }
}

extension Collection where Element: Comparable {
    /// The median (the upper of the middle two for an even count), or nil when empty.
    public var median: Element? {
        let sorted = self.sorted()
        return sorted.element(at: sorted.count / 2)
    }
}
