extension Int {
    /// The decimal digits of a non-negative value with leading zeros up to `width`
    /// (`7.zeroPadded(3)` is `"007"`; a longer number keeps all its digits).
    func zeroPadded(_ width: Int) -> String {
        let digits = String(self)
        return String(repeating: "0", count: Swift.max(0, width - digits.count)) + digits
    }
}
