import CJack

/// The JACK transport, as the process callback reads it.
enum JackTransport {
    /// `jack_transport_query` (without a position): whether the transport rolls in this cycle;
    /// realtime-safe by libjack's contract. Compared as raw integers: `==` on the imported C enum
    /// asks for type metadata, which an unoptimized build instantiates under a lock.
    // realtime
    @inline(__always)
    static func isRolling(_ handle: OpaquePointer) -> Bool {
        jack_transport_query(handle, nil).rawValue == JackTransportRolling.rawValue
    }
}
