import CShout
import Glibc
import JackwaveVocabulary

/// One source connection to an Icecast server: the one place jackwave calls libshout, each
/// method wrapping the `shout_*` function its doc line names. Non-blocking, so that the
/// streamer's thread never hangs on a slow or silent server (`queuedBytes` says how far
/// behind it is). HTTP, over TLS for `icecasts://` (libshout checks the certificate and the
/// host name). Streamer thread only.
final class IcecastConnection {
    private let shout: UnsafePointer<jackwave_shout>
    private var handle: OpaquePointer?
    private let host: String

    /// What an open or a poll found.
    enum State: Equatable {
        case connected, pending
        case failed(String)
    }

    /// `shout_new` and its settings: host, port, user, password, mount, HTTP, the content
    /// format (`SHOUT_FORMAT_OGG` or `_MP3`), TLS from the first byte (`SHOUT_TLS_RFC2818`)
    /// or none, the authorities to trust, non-blocking, an agent name.
    init(target: StreamTarget, password: String) throws(LoadFailure) {
        shout = try Shout.loaded.get()
        host = target.host
        guard let h = shout.pointee.shout_new() else { throw LoadFailure(reason: "libshout could not allocate a connection") }
        handle = h
        let s = shout.pointee
        let format = UInt32(target.codec == .mp3 ? SHOUT_FORMAT_MP3 : SHOUT_FORMAT_OGG)
        // Never SHOUT_TLS_AUTO: a server (or someone in between) that answers in clear would
        // get the password in clear.
        let tls = target.tls ? SHOUT_TLS_RFC2818 : SHOUT_TLS_DISABLED
        var results = [
            s.shout_set_host(h, target.host), s.shout_set_port(h, UInt16(target.port)),
            s.shout_set_user(h, target.user), s.shout_set_password(h, password),
            s.shout_set_mount(h, target.mount), s.shout_set_protocol(h, UInt32(SHOUT_PROTOCOL_HTTP)),
            s.shout_set_content_format(h, format, UInt32(SHOUT_USAGE_AUDIO), nil),
            s.shout_set_tls(h, Int32(tls)), s.shout_set_nonblocking(h, 1),
            s.shout_set_agent(h, "jackwave"), s.shout_set_meta(h, SHOUT_META_NAME, "jackwave"),
        ]
        if target.tls, let authorities = target.certificateAuthorities { results.append(s.shout_set_ca_file(h, authorities)) }
        if let bad = results.firstIndex(where: { $0 != SHOUTERR_SUCCESS }) {
            let reason = lastError
            s.shout_free(h)
            handle = nil
            throw LoadFailure(reason: "libshout refused setting \(bad + 1) for \(target.display): \(reason)")
        }
    }

    deinit {
        close()
        if let handle { shout.pointee.shout_free(handle) }
    }

    /// `shout_open`: starts connecting and logging in.
    func open() -> State { state(shout.pointee.shout_open(handle)) }

    /// `shout_get_connected`: whether the login has gone through yet.
    func poll() -> State { state(shout.pointee.shout_get_connected(handle)) }

    /// `shout_send`: queues `bytes` and sends what the socket takes; then `shout_send` of
    /// nothing, which pushes the queue on and reports a broken socket. The failure, if any.
    func send(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        if bytes.count > 0, let failure = sendFailure(shout.pointee.shout_send(handle, bytes.baseAddress, bytes.count)) {
            return failure
        }
        return sendFailure(shout.pointee.shout_send(handle, nil, 0))
    }

    /// `shout_queuelen`: bytes libshout holds that the socket has not taken.
    var queuedBytes: Int { max(0, shout.pointee.shout_queuelen(handle)) }

    /// `shout_close`: ends the connection (if any). Safe to call twice.
    func close() {
        guard let handle else { return }
        _ = shout.pointee.shout_close(handle)
    }

    /// `shout_get_error`, kept to printable ASCII and 200 characters.
    var lastError: String {
        guard let text = shout.pointee.shout_get_error(handle) else { return "unknown error" }
        return String(String(cString: text).unicodeScalars.filter { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7f }.prefix(200))
    }

    private func state(_ code: Int32) -> State {
        switch code {
        case SHOUTERR_SUCCESS, SHOUTERR_CONNECTED: return .connected
        case SHOUTERR_BUSY, SHOUTERR_RETRY: return .pending
        case SHOUTERR_TLSBADCERT:
            return .failed("the server's certificate is not trusted, or not made out to \(host) (trusted: the system's authorities, or the stream's CA file)")
        case SHOUTERR_NOTLS: return .failed("the server does not speak TLS on that port")
        default: return .failed(lastError)
        }
    }

    private func sendFailure(_ code: Int32) -> String? {
        code == SHOUTERR_SUCCESS || code == SHOUTERR_BUSY || code == SHOUTERR_RETRY ? nil : lastError
    }
}
