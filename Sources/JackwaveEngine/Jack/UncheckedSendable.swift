/// A value handed to another thread that Swift cannot prove safe to share (a C handle whose
/// use the caller serializes).
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
