import CJack

/// One of this client's registered audio ports: the `jack_port_t *` libjack gave back,
/// typed so that no raw C handle crosses into the layers above the host.
///
/// The handle stays valid while the client is open; libjack serializes its use.
public struct JackPort: @unchecked Sendable, Equatable {
    /// The C handle, for the engine's per-cycle `jack_port_get_buffer`.
    let handle: OpaquePointer

    /// `jack_port_short_name`: the name without the client (`in_1`).
    public var shortName: String { String(cString: jack_port_short_name(handle)) }

    /// `jack_port_name`: the full name (`client:port`).
    public var fullName: String { String(cString: jack_port_name(handle)) }

    /// `jack_port_get_connections`: the ports connected to this one, by full name.
    public var connections: [String] { takeNameList(jack_port_get_connections(handle)) }

    /// `jack_port_get_buffer`: this cycle's samples. The one libjack call made on the
    /// realtime thread; it only computes an address.
    // realtime
    @inline(__always)
    static func buffer(of port: OpaquePointer, frames: jack_nframes_t) -> UnsafeMutableRawPointer? {
        jack_port_get_buffer(port, frames)
    }

    // realtime
    @inline(__always)
    static func samples(of port: OpaquePointer, frames: jack_nframes_t) -> UnsafeMutablePointer<Float> {
        jack_port_get_buffer(port, frames)!.assumingMemoryBound(to: Float.self)
    }
}
