import CJack

/// Which way audio flows through a port, from the port's own side.
public enum PortDirection: Sendable, Equatable {
    /// The port takes audio in (jackwave's `in_N`, a sound card's playback ports).
    case input
    /// The port gives audio out (jackwave's `out_N`, a sound card's capture ports).
    case output

    /// `JackPortIsInput` or `JackPortIsOutput`, as `jack_port_register` and
    /// `jack_get_ports` take them.
    var jackFlags: UInt {
        UInt(self == .input ? JackPortIsInput.rawValue : JackPortIsOutput.rawValue)
    }
}
