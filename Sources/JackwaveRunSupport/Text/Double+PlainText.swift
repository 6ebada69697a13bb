extension Double {
    /// The number as a user would write it: no trailing `.0` (`440`, `997.5`).
    public var plainText: String {
        self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self)
    }
}
