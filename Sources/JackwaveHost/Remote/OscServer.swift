import CLo
import FoundationEssentials
import Glibc

/// A UDP OSC server on liblo's own thread (`lo_server_thread`): the one place jackwave
/// calls liblo. Every message, whatever its path, goes to `handle`, on that thread; what
/// it returns is sent back to the message's sender.
///
/// The thread is created by `init`: create the server while SIGINT and SIGTERM are held
/// on the calling thread (`SignalTrap`), so that liblo's thread inherits them blocked.
public final class OscServer: @unchecked Sendable {
    /// A reply: an OSC path and its arguments.
    public typealias Reply = (path: String, arguments: [OscArgument])
    /// Called on liblo's thread for each message received.
    public typealias Handler = @Sendable (_ path: String, _ arguments: [OscArgument]) -> Reply?

    private let thread: lo_server_thread
    private let handler: Handler
    /// The UDP port listened on.
    public let port: Int

    /// `lo_server_thread_new` on `port` (0: any free port), `lo_server_thread_add_method` for every path and
    /// type, then `lo_server_thread_start`; nil when the port cannot be bound.
    public init?(port: Int, handler: @escaping Handler) {
        let made = port == 0 ? lo_server_thread_new(nil, { _, _, _ in }) : lo_server_thread_new("\(port)", { _, _, _ in })
        guard let made else { return nil }
        thread = made
        self.handler = handler
        self.port = Int(lo_server_thread_get_port(made))
        let context = Unmanaged.passUnretained(self).toOpaque()
        lo_server_thread_add_method(made, nil, nil, { path, types, argv, argc, message, context in
            Unmanaged<OscServer>.fromOpaque(context!).takeUnretainedValue()
                .received(path: path, types: types, argv: argv, argc: argc, message: message)
            return 0
        }, context)
        lo_server_thread_start(made)
    }

    /// `lo_server_thread_free`: stops the thread and closes the socket.
    deinit { lo_server_thread_free(thread) }

    /// Reads the message's arguments by their type tags, hands them over, answers.
    private func received(path: UnsafePointer<CChar>?, types: UnsafePointer<CChar>?,
                          argv: UnsafeMutablePointer<UnsafeMutablePointer<lo_arg>?>?, argc: Int32, message: lo_message?) {
        let name = path.map { String(cString: $0) } ?? ""
        let tags = Array((types.map { String(cString: $0) } ?? "").prefix(Int(argc)))
        var arguments: [OscArgument] = []
        for (i, tag) in tags.enumerated() {
            guard let arg = argv?[i] else { arguments.append(.other(tag)); continue }
            switch tag {
            case "i": arguments.append(.int(Int64(arg.pointee.i)))
            case "h": arguments.append(.int(arg.pointee.h))
            case "f": arguments.append(.float(Double(arg.pointee.f)))
            case "d": arguments.append(.float(arg.pointee.d))
            // A string argument is stored in place, starting where the union starts.
            case "s", "S": arguments.append(.string(String(cString: UnsafeRawPointer(arg).assumingMemoryBound(to: CChar.self))))
            default: arguments.append(.other(tag))
            }
        }
        guard let reply = handler(name, arguments), let message else { return }
        send(reply, to: lo_message_get_source(message))
    }

    /// Sends a message from this server's socket to `host:port` (`lo_address_new`, then
    /// as below, then `lo_address_free`): a peer's replies come back to `handle`.
    public func send(_ message: Reply, toHost host: String, port: Int) {
        guard let address = lo_address_new(host, "\(port)") else { return }
        defer { lo_address_free(address) }
        send(message, to: address)
    }

    /// `lo_message_new`, `lo_message_add_*` per argument, `lo_send_message_from` (from this
    /// server's socket, so the sender's port gets it), `lo_message_free`.
    private func send(_ reply: Reply, to address: lo_address?) {
        guard let address, let out = lo_message_new() else { return }
        defer { lo_message_free(out) }
        for argument in reply.arguments {
            switch argument {
            case let .int(i): lo_message_add_int64(out, i)
            case let .float(d): lo_message_add_double(out, d)
            case let .string(s): lo_message_add_string(out, s)
            case .other: break
            }
        }
        lo_send_message_from(address, lo_server_thread_get_server(thread), reply.path, out)
    }
}
