import CGlibcExtras
import CJack
import Dispatch
import FoundationEssentials
import Glibc
import JackwaveRunSupport

/// A JACK client: the one place where jackwave calls libjack's client and port API.
///
/// Every method wraps exactly one `jack_*` function, named in its doc line. Nothing here is
/// called from the realtime thread; ports are `JackPort`s, whose buffers the engine reads.
public final class JackClient {
    /// The C handle (`jack_client_t *`).
    public let handle: OpaquePointer
    /// The name the server gave this client (may differ from the one asked for).
    public let name: String

    /// Opens a client without starting a server: `jack_client_open` (through the
    /// `jackwave_client_open` shim, since the C function is variadic).
    /// `server` nil means `$JACK_DEFAULT_SERVER`, else the default server.
    public convenience init(name: String, server: String?) throws(JackError) {
        var status = jack_status_t(rawValue: 0)
        let opened: OpaquePointer? = if let server {
            jackwave_client_open(name, server, &status)
        } else {
            jackwave_client_open(name, nil, &status)
        }
        guard let opened else { throw .openFailed(status: status.rawValue, server: server) }
        self.init(opened: opened)
    }

    /// A client `jack_client_open` has opened (`PendingClientOpen`).
    init(opened: OpaquePointer) {
        handle = opened
        name = String(cString: jack_get_client_name(opened))
    }

    /// `jack_client_close` on a helper thread, waiting at most `timeout` seconds; false if it had
    /// not returned. libjack 1.9.21 can deadlock inside it (several clients with hundreds of
    /// ports closing at once), so call it last: the server drops a client whose process ends.
    public func close(timeout: Double) -> Bool {
        let done = DispatchSemaphore(value: 0)
        let handle = UncheckedSendable(self.handle)
        DetachedThread.start {
            _ = jack_client_close(handle.value)
            done.signal()
        }
        return done.wait(timeout: .now() + timeout) == .success
    }

    /// `jack_get_version_string`: libjack's version; PipeWire's libjack names itself in it
    /// ("3.0.0.0 (using PipeWire 0.3.65)").
    public static var libraryVersion: String { String(cString: jack_get_version_string()) }

    /// Whether the libjack in use is PipeWire's. Compared as UTF-8 bytes: `String.contains` would
    /// page in _StringProcessing for this one test (BENCHMARKS.md, footprint).
    public static var isPipeWire: Bool {
        let version = Array(libraryVersion.utf8), name = Array("PipeWire".utf8)
        guard version.count >= name.count else { return false }
        return (0...(version.count - name.count)).contains { version[$0..<$0 + name.count].elementsEqual(name) }
    }

    /// `jack_last_frame_time`: the server's frame time at the start of this cycle. Called on
    /// the realtime thread: it reads the server's clock from shared memory.
    // realtime
    @inline(__always)
    static func cycleStart(_ handle: OpaquePointer) -> jack_nframes_t { jack_last_frame_time(handle) }

    /// `jack_get_sample_rate`.
    public var sampleRate: Int { Int(jack_get_sample_rate(handle)) }

    /// `jack_get_buffer_size`.
    public var bufferSize: Int { Int(jack_get_buffer_size(handle)) }

    /// `jack_port_register` for a MIDI port (`JACK_DEFAULT_MIDI_TYPE`).
    public func registerMidiPort(shortName: String, direction: PortDirection) throws(JackError) -> JackPort {
        guard let port = jack_port_register(handle, shortName, JACK_DEFAULT_MIDI_TYPE, direction.jackFlags, 0) else {
            throw JackError.portRegistrationFailed(shortName)
        }
        return JackPort(handle: port)
    }

    /// `jack_get_ports` for MIDI ports, as `portNames` is for audio ones.
    public func midiPortNames(direction: PortDirection? = nil, physicalOnly: Bool = false) -> [String] {
        var flags = direction?.jackFlags ?? 0
        if physicalOnly { flags |= UInt(JackPortIsPhysical.rawValue) }
        return takeNameList(jack_get_ports(handle, nil, JACK_DEFAULT_MIDI_TYPE, flags))
    }

    /// `jack_port_register` for a 32-bit float audio port.
    public func registerAudioPort(shortName: String, direction: PortDirection) throws(JackError) -> JackPort {
        guard let port = jack_port_register(handle, shortName, JACK_DEFAULT_AUDIO_TYPE, direction.jackFlags, 0) else {
            throw .portRegistrationFailed(shortName)
        }
        return JackPort(handle: port)
    }

    /// `jack_set_process_callback`.
    public func setProcessCallback(_ callback: JackProcessCallback, context: UnsafeMutableRawPointer) throws(JackError) {
        guard jack_set_process_callback(handle, callback, context) == 0 else { throw .callbackRejected("process") }
    }

    /// `jack_client_thread_id`, then `pthread_setname_np` (`CGlibcExtras`): names the process
    /// thread for `top -H` and perf. Call after `activate`, from another thread, so the realtime
    /// thread makes no syscall. When libjack names no thread of its own (0, or the calling
    /// thread), nothing is renamed: the main thread's name is what `pidof` goes by.
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

    /// `jack_set_latency_callback`.
    public func setLatencyCallback(_ callback: JackLatencyCallback, context: UnsafeMutableRawPointer) {
        _ = jack_set_latency_callback(handle, callback, context)
    }

    /// `jack_set_port_registration_callback`.
    public func setPortRegistrationCallback(_ callback: JackPortRegistrationCallback, context: UnsafeMutableRawPointer) {
        _ = jack_set_port_registration_callback(handle, callback, context)
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

    /// `jack_get_ports`: names of audio ports matching a regular expression, in the
    /// server's order (for physical ports, their number order). `direction` is the ports'
    /// own: `.output` for ports that produce audio (sources to record), `.input` for ports
    /// that take it (destinations for a tone); nil for both.
    public func portNames(matching pattern: String? = nil, direction: PortDirection? = nil,
                          physicalOnly: Bool = false) -> [String] {
        var flags = direction?.jackFlags ?? 0
        if physicalOnly { flags |= UInt(JackPortIsPhysical.rawValue) }
        return takeNameList(jack_get_ports(handle, pattern, JACK_DEFAULT_AUDIO_TYPE, flags))
    }

    /// `jack_port_by_id` then `jack_port_name`; nil if the port is gone.
    public func portName(id: jack_port_id_t) -> String? {
        guard let port = jack_port_by_id(handle, id), let cName = jack_port_name(port) else { return nil }
        return String(cString: cName)
    }

    /// `jack_port_by_name`: whether a port of that full name is registered now.
    public func portExists(_ name: String) -> Bool { jack_port_by_name(handle, name) != nil }

    /// `jack_port_by_name`, then `jack_port_get_latency_range(JackCaptureLatency)`: what the
    /// port (any client's) declares as the time since its audio was captured; nil if no port
    /// has that name.
    public func captureLatency(ofPortNamed name: String) -> DeclaredLatency? {
        guard let port = jack_port_by_name(handle, name) else { return nil }
        return JackPort(handle: port).declaredLatency(.capture)
    }

    /// `jack_port_is_mine`.
    public func isMine(portID: jack_port_id_t) -> Bool {
        guard let port = jack_port_by_id(handle, portID) else { return false }
        return jack_port_is_mine(handle, port) != 0
    }

    /// `jack_set_error_function` and `jack_set_info_function`: libjack's own messages
    /// ("Cannot connect to server socket", …) go nowhere; jackwave says what went wrong in
    /// one line of its own. Call before opening a client.
    public static func silenceLibraryMessages() {
        jack_set_error_function { _ in }
        jack_set_info_function { _ in }
    }
}

/// Copies a NULL-terminated array of C strings that libjack allocated, then releases it
/// with `jack_free` (libjack may use its own allocator, so never plain `free`).
func takeNameList(_ list: UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> [String] {
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
