import CJack

/// The JACK transport, as the process callback reads it.
enum JackTransport {
    /// `jack_transport_query` (without a position): whether the transport rolls in this
    /// cycle. Realtime-safe by libjack's contract (it reads the cycle's shared state); every
    /// client sees the same state for the same cycle. Compared as raw integers: `==` on the
    /// imported C enum asks for its type metadata, which an unoptimized build instantiates
    /// on first use, under a lock and with allocation (rtcheck caught it in the callback).
    @inline(__always)
    static func isRolling(_ handle: OpaquePointer) -> Bool {
        jack_transport_query(handle, nil).rawValue == JackTransportRolling.rawValue
    }
}
