import CGlibcExtras
import CJack
import Foundation

/// A JACK client: the one place where jackwave calls libjack's client and port API.
///
/// Every method wraps exactly one `jack_*` function, named in its doc line. Nothing here is
/// called from the realtime thread except through the raw port handles the engine keeps.
public final class JackClient {
    /// The C handle (`jack_client_t *`).
    public let handle: OpaquePointer
    /// The name the server gave this client (may differ from the one asked for).
    public let name: String

    /// Opens a client without starting a server: `jack_client_open` (through the
    /// `jackwave_client_open` shim, since the C function is variadic).
    /// `server` nil means `$JACK_DEFAULT_SERVER`, else the default server.
    public init(name: String, server: String?) throws(JackError) {
        var status = jack_status_t(rawValue: 0)
        let opened: OpaquePointer? = if let server {
            jackwave_client_open(name, server, &status)
        } else {
            jackwave_client_open(name, nil, &status)
        }
        guard let opened else { throw .openFailed(status: status.rawValue, server: server) }
        handle = opened
        self.name = String(cString: jack_get_client_name(opened))
    }

    /// `jack_client_close` on a helper thread, waiting at most `timeout` seconds; false if
    /// it had not returned by then. libjack 1.9.21 can deadlock inside it (seen when several
    /// clients with hundreds of ports close at once: the main thread waits for a libjack lock
    /// forever). Call it when nothing else is left to do: the files are final, and the server
    /// drops a client whose process ends.
    public func close(timeout: Double) -> Bool {
        let done = DispatchSemaphore(value: 0)
        let handle = UncheckedSendable(self.handle)
        Thread.detachNewThread {
            _ = jack_client_close(handle.value)
            done.signal()
        }
        return done.wait(timeout: .now() + timeout) == .success
    }

    /// `jack_get_sample_rate`.
    public var sampleRate: Int { Int(jack_get_sample_rate(handle)) }

    /// `jack_get_buffer_size`.
    public var bufferSize: Int { Int(jack_get_buffer_size(handle)) }

    /// `jack_port_register` for a 32-bit float audio port.
    public func registerAudioPort(shortName: String, isInput: Bool) throws(JackError) -> OpaquePointer {
        let flags = UInt(isInput ? JackPortIsInput.rawValue : JackPortIsOutput.rawValue)
        guard let port = jack_port_register(handle, shortName, JACK_DEFAULT_AUDIO_TYPE, flags, 0) else {
            throw .portRegistrationFailed(shortName)
        }
        return port
    }

    /// `jack_set_process_callback`.
    public func setProcessCallback(_ callback: JackProcessCallback, context: UnsafeMutableRawPointer) throws(JackError) {
        guard jack_set_process_callback(handle, callback, context) == 0 else { throw .callbackRejected("process") }
    }

    /// `jack_client_thread_id`, then `pthread_setname_np` on that thread (through
    /// `CGlibcExtras`): names the process thread for `top -H` and perf. Call after
    /// `activate`, from another thread: the realtime thread itself never makes the system
    /// call. Nothing is renamed when libjack names no thread of its own (0, or the calling
    /// thread, as a JACK implementation without a process thread of its own may answer):
    /// the main thread's name is the process's, which `pidof` and `killall` go by.
    public func nameProcessThread(_ name: String) {
        let thread = UInt(jack_client_thread_id(handle))
        guard thread != 0 && thread != jackwave_this_thread() else { return }
        _ = jackwave_name_thread(thread, name)
    }

    /// `jack_set_xrun_callback`.
    public func setXrunCallback(_ callback: JackXRunCallback, context: UnsafeMutableRawPointer) {
        _ = jack_set_xrun_callback(handle, callback, context)
    }

    /// `jack_set_sample_rate_callback`.
    public func setSampleRateCallback(_ callback: JackSampleRateCallback, context: UnsafeMutableRawPointer) {
        _ = jack_set_sample_rate_callback(handle, callback, context)
    }

    /// `jack_set_port_connect_callback`.
    public func setPortConnectCallback(_ callback: JackPortConnectCallback, context: UnsafeMutableRawPointer) {
        _ = jack_set_port_connect_callback(handle, callback, context)
    }

    /// `jack_on_info_shutdown`.
    public func setShutdownCallback(_ callback: JackInfoShutdownCallback, context: UnsafeMutableRawPointer) {
        jack_on_info_shutdown(handle, callback, context)
    }

    /// `jack_activate`.
    public func activate() throws(JackError) {
        guard jack_activate(handle) == 0 else { throw .activationFailed }
    }

    /// `jack_deactivate`: returns once the process callback will not run again.
    public func deactivate() { _ = jack_deactivate(handle) }

    /// `jack_connect`. Returns the C result: 0, `EEXIST` when already connected, else failure.
    @discardableResult
    public func connect(source: String, destination: String) -> Int32 {
        jack_connect(handle, source, destination)
    }

    /// `jack_get_ports`: names of ports matching a regular expression and flags, in the
    /// server's order (for physical ports, their number order).
    public func portNames(matching pattern: String? = nil, flags: JackPortFlags = JackPortFlags(0)) -> [String] {
        takeNameList(jack_get_ports(handle, pattern, JACK_DEFAULT_AUDIO_TYPE, UInt(flags.rawValue)))
    }

    /// `jack_port_by_id` then `jack_port_name`; nil if the port is gone.
    public func portName(id: jack_port_id_t) -> String? {
        guard let port = jack_port_by_id(handle, id), let cName = jack_port_name(port) else { return nil }
        return String(cString: cName)
    }

    /// `jack_port_is_mine`.
    public func isMine(portID: jack_port_id_t) -> Bool {
        guard let port = jack_port_by_id(handle, portID) else { return false }
        return jack_port_is_mine(handle, port) != 0
    }

    /// `jack_port_get_connections`: the ports connected to one of ours, by full name.
    public static func connections(of port: OpaquePointer) -> [String] {
        takeNameList(jack_port_get_connections(port))
    }

    /// `jack_port_get_buffer`: a port's samples for this cycle. The one libjack call made
    /// on the realtime thread; it only computes an address.
    @inline(__always)
    static func samples(of port: OpaquePointer, frames: jack_nframes_t) -> UnsafeMutablePointer<Float> {
        jack_port_get_buffer(port, frames)!.assumingMemoryBound(to: Float.self)
    }

    /// `jack_set_error_function` and `jack_set_info_function`: libjack's own messages
    /// ("Cannot connect to server socket", …) go nowhere; jackwave says what went wrong in
    /// one line of its own. Call before opening a client.
    public static func silenceLibraryMessages() {
        jack_set_error_function { _ in }
        jack_set_info_function { _ in }
    }

    /// `jack_port_short_name`: a port's name without the client (`in_1`).
    public static func shortName(of port: OpaquePointer) -> String {
        String(cString: jack_port_short_name(port))
    }

    /// `jack_port_name`: a port's full name (`client:port`).
    public static func fullName(of port: OpaquePointer) -> String {
        String(cString: jack_port_name(port))
    }
}

/// Copies a NULL-terminated array of C strings that libjack allocated, then releases it
/// with `jack_free` (libjack may use its own allocator, so never plain `free`).
private func takeNameList(_ list: UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> [String] {
    guard let list else { return [] }
    defer { jack_free(list) }
    var names: [String] = []
    var i = 0
    while let cName = list[i] {
        names.append(String(cString: cName))
        i += 1
    }
    return names
}

/// What can go wrong talking to JACK outside the realtime thread.
public enum JackError: Error, Equatable {
    case openFailed(status: UInt32, server: String?)
    case portRegistrationFailed(String)
    case callbackRejected(String)
    case activationFailed

    /// One line for the user, saying what to do.
    public var message: String {
        switch self {
        case let .openFailed(status, server):
            let named = server ?? ProcessInfo.processInfo.environment["JACK_DEFAULT_SERVER"]
            let which = named.map { "JACK server '\($0)'" } ?? "the default JACK server"
            if status & JackServerFailed.rawValue != 0 {
                let start = named.map { "jackd -n \($0) -d alsa (or scripts/jackd-dummy \($0))" }
                    ?? "jackd -d alsa, or scripts/jackd-dummy for a server without a sound card"
                return "cannot connect to \(which): is it running? Start one with: \(start)"
            }
            return "cannot open a JACK client on \(which) (status 0x\(String(status, radix: 16)))"
        case let .portRegistrationFailed(name): return "cannot register JACK port \(name)"
        case let .callbackRejected(what): return "JACK refused the \(what) callback"
        case .activationFailed: return "cannot activate the JACK client"
        }
    }
}

/// A value handed to another thread that Swift cannot prove safe to share (a C handle whose
/// use the caller serializes).
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
