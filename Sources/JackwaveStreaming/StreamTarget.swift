import FoundationEssentials
import JackwaveSoundFiles
import JackwaveVocabulary

/// Where `--stream icecast://USER[:PASSWORD]@HOST[:PORT]/MOUNT.EXT` sends the live stream,
/// checked when parsed. The mount's extension names the codec; the user defaults to
/// `source`, the port to 8000. `icecasts://` is TLS from the first byte (port 8443), the
/// certificate checked against the system's authorities or `certificateAuthorities`. A
/// password in the URL is kept apart, so that no line shows it (`display` leaves it out).
public struct StreamTarget: Sendable, Equatable {
    /// The codecs a stream can carry, each through libsndfile's encoder.
    public enum Codec: String, Sendable, Equatable {
        case vorbis, opus, mp3

        /// The sound format its bytes are (`SoundFormat.named`).
        public var format: SoundFormat { SoundFormat.named(self == .vorbis ? "ogg" : rawValue)! }
    }

    public var user: String
    public var host: String
    public var port: Int
    /// The mount point, from its `/`: `/live.ogg`.
    public var mount: String
    public var codec: Codec
    /// A password written in the URL, if any (it works, with a warning: it shows in the
    /// process list).
    public var passwordInURL: String?
    /// `icecasts://`: the connection is TLS.
    public var tls = false
    /// A PEM file of the authorities trusted for the server's certificate (`--stream-ca`),
    /// instead of the system's; TLS only.
    public var certificateAuthorities: String?

    /// The longest URL taken, and the longest mount: beyond any real one.
    static let maximumLength = 1024
    static let maximumMount = 255

    /// The URL without its password, for lines and events: `icecast://source@host:8000/live.ogg`.
    public var display: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "\(tls ? "icecasts" : "icecast")://\(user)@\(shownHost):\(port)\(mount)"
    }

    /// Whether the host is this machine, written as a loopback address or `localhost`:
    /// what crosses no network, TLS or not.
    public var isLoopback: Bool {
        let lower = host.lowercased()
        if lower == "localhost" || lower == "::1" { return true }
        let parts = lower.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.first == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    /// Reads `--stream`'s value; one line saying what is wrong otherwise.
    public static func parse(_ text: String) throws(StreamTargetError) -> StreamTarget {
        func refuse(_ why: String) -> StreamTargetError { StreamTargetError("\(setting: .stream): \(why)") }
        guard text.utf8.count <= maximumLength else { throw refuse("the URL is longer than \(maximumLength) bytes") }
        guard text.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0.value < 0x7f }) else {
            throw refuse("the URL may hold printable ASCII only (percent-encode the rest)")
        }
        guard let url = URLComponents(string: text), let scheme = url.scheme?.lowercased() else {
            throw refuse("'\(text)' is not a URL (use icecast://USER@HOST:PORT/mount.ogg)")
        }
        guard scheme == "icecast" || scheme == "icecasts" else {
            throw refuse("the URL must start with icecast:// or, for TLS, icecasts:// (not \(scheme)://)")
        }
        let tls = scheme == "icecasts"
        guard url.query == nil, url.fragment == nil else { throw refuse("the URL takes no ?query or #fragment") }
        var host = url.host ?? ""
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty, host.utf8.count <= 253,
              host.unicodeScalars.allSatisfy({ ($0.properties.isASCIIHexDigit || $0.isASCIILetterOrDigit) || ".-:".unicodeScalars.contains($0) }) else {
            throw refuse("no host name or address after \(scheme)://")
        }
        // URLComponents reads a port too large for an Int as none, which would be the default:
        // a port written is the one used, or refused.
        if url.port == nil, let written = writtenPort(text), !written.isEmpty {
            throw refuse("port \(written) is not between 1 and 65535")
        }
        let port = url.port ?? (tls ? 8443 : 8000)
        guard (1...65535).contains(port) else { throw refuse("port \(port) is not between 1 and 65535") }
        let user = url.user ?? "source"
        guard !user.isEmpty, user.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7f && $0 != ":" }) else {
            throw refuse("the user name must be printable ASCII without ':'")
        }
        if let password = url.password, password.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f }) {
            throw refuse("the password holds a control character")
        }
        let mount = url.path
        guard mount.hasPrefix("/"), mount.count > 1, mount.utf8.count <= maximumMount,
              mount.unicodeScalars.allSatisfy({ $0.isASCIILetterOrDigit || "._~/-".unicodeScalars.contains($0) }),
              !mount.split(separator: "/").contains("..") else {
            throw refuse("the mount point must be a path of letters, digits and ._~/- (like /live.ogg)")
        }
        let codec: Codec
        switch FileNames.lowercasedExtension(mount) {
        case "ogg", "oga": codec = .vorbis
        case "opus": codec = .opus
        case "mp3": codec = .mp3
        default: throw refuse("the mount point must end in .ogg, .opus or .mp3, which names the codec")
        }
        var target = StreamTarget(user: user, host: host, port: port, mount: mount, codec: codec,
                                  passwordInURL: url.password.flatMap { $0.isEmpty ? nil : $0 })
        target.tls = tls
        return target
    }
}

extension StreamTarget {
    /// The port as `text` writes it (`99999999999999999999` in
    /// `icecast://h:99999999999999999999/a.ogg`), nil if it writes none.
    static func writtenPort(_ text: String) -> Substring? {
        guard let scheme = text.firstRange(of: "://") else { return nil }
        let authority = text[scheme.upperBound...].prefix { $0 != "/" }
        let hostAndPort = authority.split(separator: "@", omittingEmptySubsequences: false).last ?? authority
        let rest = hostAndPort.hasPrefix("[") ? hostAndPort.drop { $0 != "]" }.dropFirst() : hostAndPort.drop { $0 != ":" }
        return rest.hasPrefix(":") ? rest.dropFirst() : nil
    }
}

/// `--stream` or its password cannot be used: one line.
public struct StreamTargetError: Error, Equatable {
    public let message: Phrase
    public init(_ message: Phrase) { self.message = message }
}

extension Unicode.Scalar {
    /// `A`–`Z`, `a`–`z`, `0`–`9`.
    var isASCIILetterOrDigit: Bool {
        (0x30...0x39).contains(value) || (0x41...0x5a).contains(value) || (0x61...0x7a).contains(value)
    }
}
