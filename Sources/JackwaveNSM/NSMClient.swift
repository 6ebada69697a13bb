import Glibc
import JackwaveUnattended

/// What the session manager gives a client to open: the path for its files (jackwave's
/// folder), the name to show, and the id that is also its JACK client's name.
public struct NSMOpen: Sendable, Equatable {
    public let path: String
    public let displayName: String
    public let clientID: String
}

/// A message from the session manager, as jackwave acts on it.
public enum NSMRequest: Sendable, Equatable {
    /// The announce was taken (the manager's name) or refused (its error line).
    case welcomed(manager: String)
    case refused(String)
    case open(NSMOpen)
    case save
    case sessionIsLoaded
}

/// The NSM API's error codes (nsm-api.adoc, "Error Code Definitions").
public enum NSMErrorCode: Int32, Sendable {
    case general = -1
    case notNow = -8
    case badProject = -9
    case createFailed = -10
}

/// jackwave's side of the New Session Manager's OSC protocol: the announce, the manager's
/// requests, the replies, and status messages.
///
/// One UDP socket on loopback (`OscListener`, which only decodes and queues), from which
/// every message is sent, as the API asks: the manager tells clients apart by the address
/// they write from. Only the manager's own address is listened to; a request from anyone
/// else is dropped. Replies are `/reply` and `/error`, which are not requests.
public final class NSMClient {
    /// The API version this client follows (nsm-api.adoc 1.1.2).
    static let apiVersion: (major: Int32, minor: Int32) = (1, 1)
    /// What jackwave can do in a session: tell the manager what it is doing, and switch to
    /// another session without a restart. No `:dirty:`: a recorder's state is its files,
    /// always saved.
    public static let capabilities = ":message:switch:"
    /// The API's requests carry at most this many bytes of text each (a path, a name).
    static let maximumText = 4096

    public let manager: OscSocketAddress
    private let listener: OscListener
    /// Requests from others than the manager, dropped.
    public private(set) var ignored = 0

    /// Resolves `url` (`NSM_URL`) and binds a loopback socket of the same family.
    public init(url: String) throws(NSMClientError) {
        manager = try NSMAddress.resolve(url)
        guard let binding = OscBinding.parse(manager.family == AF_INET6 ? "[::1]:0" : "127.0.0.1:0", ports: 0...65535) else {
            throw NSMClientError("cannot make a loopback address")
        }
        do throws(OscListenerError) {
            listener = try OscListener(binding: binding, inbox: OscInbox(capacity: 64))
        } catch {
            throw NSMClientError("cannot listen for the session manager: \(error.message)")
        }
    }

    /// `/nsm/server/announce`: jackwave, its capabilities, the name it was started by, the
    /// API version and its process id.
    public func announce(executable: String) -> Bool {
        send(OscOutgoing(path: "/nsm/server/announce",
                         arguments: [.string("jackwave"), .string(Self.capabilities), .string(executable),
                                     .int32(Self.apiVersion.major), .int32(Self.apiVersion.minor), .int32(getpid())]))
    }

    /// The manager's requests waiting now, in order; anything else it sent is skipped.
    public func requests() -> [NSMRequest] {
        var found: [NSMRequest] = []
        for message in listener.inbox.drain() {
            guard message.sender == manager else { ignored += 1; continue }
            if let request = Self.request(message.path, message.arguments) { found.append(request) }
        }
        return found
    }

    /// A message as a request, nil for one jackwave does not act on. (Package: fuzzed.)
    package static func request(_ path: String, _ arguments: [OscArgument]) -> NSMRequest? {
        let strings = arguments.map { argument -> String? in
            if case let .string(s) = argument, s.utf8.count <= maximumText { return s } else { return nil }
        }
        switch path {
        case "/nsm/client/open":
            guard arguments.count == 3, let p = strings[0], let name = strings[1], let id = strings[2] else { return nil }
            return .open(NSMOpen(path: p, displayName: name, clientID: id))
        case "/nsm/client/save":
            return .save
        case "/nsm/client/session_is_loaded":
            return .sessionIsLoaded
        case "/reply":
            guard arguments.count >= 3, strings[0] == "/nsm/server/announce" else { return nil }
            return .welcomed(manager: strings[2] ?? "a session manager")
        case "/error":
            guard arguments.count >= 3, strings[0] == "/nsm/server/announce" else { return nil }
            return .refused(strings[2] ?? "refused")
        default:
            return nil
        }
    }

    /// `/reply PATH MESSAGE`: the request at `path` is done.
    @discardableResult
    public func reply(to path: String, _ message: String) -> Bool {
        send(OscOutgoing(path: "/reply", arguments: [.string(path), .string(message)]))
    }

    /// `/error PATH CODE MESSAGE`: the request at `path` could not be done.
    @discardableResult
    public func fail(_ path: String, _ code: NSMErrorCode, _ message: String) -> Bool {
        send(OscOutgoing(path: "/error", arguments: [.string(path), .int32(code.rawValue), .string(message)]))
    }

    /// `/nsm/client/message PRIORITY TEXT` (0 to 3, 3 the most important).
    @discardableResult
    public func message(priority: Int32, _ text: String) -> Bool {
        send(OscOutgoing(path: "/nsm/client/message", arguments: [.int32(min(3, max(0, priority))), .string(text)]))
    }

    private func send(_ message: OscOutgoing) -> Bool { listener.send(message, to: manager) }
}
