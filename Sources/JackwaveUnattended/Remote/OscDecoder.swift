import CLo
import Glibc

/// A decoded OSC message: its path and its arguments, as jackwave reads them.
public struct OscDecodedMessage: Sendable, Equatable {
    public let path: String
    public let arguments: [OscArgument]

    public init(path: String, arguments: [OscArgument]) {
        self.path = path
        self.arguments = arguments
    }
}

/// liblo's decoding of a datagram (a message, or bundles, nested or not) into messages,
/// without liblo's sockets: `lo_server_dispatch_data` on a server nobody can reach.
///
/// liblo 0.31 binds every UDP server to the wildcard address, so jackwave owns its sockets
/// (`OscListener`) and hands liblo only the datagrams of senders it admits. The server liblo
/// needs is a UNIX-domain one in a directory of jackwave's own (`mkdtemp`, mode 0700). Timed
/// bundles are dispatched at once: liblo holds nothing for later. One thread at a time.
public final class OscDecoder {
    private let server: lo_server
    private let directory: String
    /// The messages of the datagram being decoded.
    private var collected: [OscDecodedMessage] = []
    private var limit = 0
    private var beyondLimit = 0

    /// Nil if the directory or liblo's server cannot be made (no writable temporary folder).
    public init?() {
        let base = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((base + "/jackwave-osc.XXXXXX").utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else { return nil }
        directory = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        guard let made = lo_server_new_with_proto(directory + "/decoder", LO_UNIX, nil) else {
            rmdir(directory)
            return nil
        }
        server = made
        let fd = lo_server_get_socket_fd(made)
        if fd >= 0 { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        _ = lo_server_enable_queue(made, 0, 1)
        let context = Unmanaged.passUnretained(self).toOpaque()
        lo_server_add_method(made, nil, nil, { path, types, argv, argc, _, context in
            Unmanaged<OscDecoder>.fromOpaque(context!).takeUnretainedValue().received(path: path, types: types, argv: argv, argc: argc)
            return 0
        }, context)
    }

    /// `lo_server_free` (which unlinks its socket, in our directory), then the directory.
    deinit {
        lo_server_free(server)
        rmdir(directory)
    }

    /// The messages of one datagram, at most `limit` of them (`dropped` counts the rest);
    /// `malformed` when liblo refused it (or part of it: a bundle's later elements).
    public func decode(_ datagram: UnsafeMutableRawBufferPointer, limit: Int = .max)
        -> (messages: [OscDecodedMessage], dropped: Int, malformed: Bool) {
        collected.removeAll(keepingCapacity: true)
        self.limit = limit
        beyondLimit = 0
        guard let base = datagram.baseAddress, datagram.count > 0 else { return ([], 0, true) }
        let used = lo_server_dispatch_data(server, base, datagram.count)
        return (collected, beyondLimit, used < 0)
    }

    /// liblo's call for each message: its arguments read by their type tags.
    private func received(path: UnsafePointer<CChar>?, types: UnsafePointer<CChar>?,
                          argv: UnsafeMutablePointer<UnsafeMutablePointer<lo_arg>?>?, argc: Int32) {
        guard collected.count < limit else { beyondLimit += 1; return }
        let name = path.map { String(cString: $0) } ?? ""
        var arguments: [OscArgument] = []
        if let types {
            for i in 0..<Int(max(0, argc)) {
                let tag = Character(Unicode.Scalar(UInt8(bitPattern: types[i])))
                guard let arg = argv?[i] else { arguments.append(.other(tag)); continue }
                switch tag {
                case "i": arguments.append(.int(Int64(arg.pointee.i)))
                case "h": arguments.append(.int(arg.pointee.h))
                case "f": arguments.append(.float(Double(arg.pointee.f)))
                case "d": arguments.append(.float(arg.pointee.d))
                // A string argument is stored in place, starting where the union starts; liblo
                // checked that it ends within the message.
                case "s", "S": arguments.append(.string(String(cString: UnsafeRawPointer(arg).assumingMemoryBound(to: CChar.self))))
                default: arguments.append(.other(tag))
                }
            }
        }
        collected.append(OscDecodedMessage(path: name, arguments: arguments))
    }
}
