/// The marker key: `m` (or `M`) on the terminal drops a marker at the current frame.
enum MarkerKey {
    /// How many times the marker key is among `bytes` (escape sequences hold no `m`).
    static func count(in bytes: [UInt8]) -> Int {
        bytes.filter { $0 == UInt8(ascii: "m") || $0 == UInt8(ascii: "M") }.count
    }
}
