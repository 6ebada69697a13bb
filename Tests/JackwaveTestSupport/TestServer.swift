import Foundation
import Testing

/// A server the end-to-end tests run clients against: `jackd -d dummy` or PipeWire.
public protocol TestServer: AnyObject, Sendable {
    /// What `Run` takes as `server:` to reach it.
    var name: String { get }
    /// Which server this is.
    var kind: ServerKind { get }
    /// The rate and period (PipeWire: quantum) it was started with.
    var sampleRate: Int { get }
    var period: Int { get }
    /// Stops it and waits for it.
    func stop()
    /// Kills it at once, as a crash would; returns once it is gone.
    func crash()
    /// Cleans up what a crash left behind (jackd: its slot in JACK's server list).
    func cleanUpAfterCrash()
}

extension JackServer: TestServer {
    public var kind: ServerKind { .jackd }
    public func cleanUpAfterCrash() { reclaimAfterCrash() }
}

extension PipeWireServer: TestServer {
    public var kind: ServerKind { .pipewire }
    /// Nothing to clean: PipeWire keeps no list of servers.
    public func cleanUpAfterCrash() {}
}

/// The servers the end-to-end tests run on: a test over `ServerKind.allCases` starts its own
/// server of each kind (`start`), so one test body states one behaviour for both; the suites
/// that run on jackd only say why in docs/how-it-works.md.
public enum ServerKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// A private `jackd -d dummy` (JACK2): `JackServer`.
    case jackd
    /// A private headless PipeWire, clients run as `pw-jack` runs them: `PipeWireServer`.
    case pipewire

    public var testDescription: String { self == .jackd ? "jackd" : "PipeWire" }

    /// Starts a server of this kind with jackd's names for its physical ports
    /// (`system:capture_N`, `system:playback_N`) and waits until clients can use it.
    public func start(sampleRate: Int = 48000, period: Int = 256, capturePorts: Int = 2, playbackPorts: Int = 2) throws
        -> any TestServer {
        switch self {
        case .jackd: try Self.startJackd(sampleRate: sampleRate, period: period, capturePorts: capturePorts, playbackPorts: playbackPorts)
        case .pipewire: try Self.startPipeWire(rate: sampleRate, quantum: period, capturePorts: capturePorts, playbackPorts: playbackPorts)
        }
    }

    /// A jackd, for the tests of what only jackd does; everything else goes through `start`.
    public static func startJackd(sampleRate: Int = 48000, period: Int = 256, capturePorts: Int = 2, playbackPorts: Int = 2) throws
        -> JackServer {
        try JackServer(sampleRate: sampleRate, period: period, capturePorts: capturePorts, playbackPorts: playbackPorts)
    }

    /// A PipeWire, for the tests of what only PipeWire does (its settings, `pw-jack`).
    public static func startPipeWire(rate: Int = 48000, quantum: Int = 256, capturePorts: Int = 2, playbackPorts: Int = 2) throws
        -> PipeWireServer {
        try PipeWireServer(rate: rate, quantum: quantum, capturePorts: capturePorts, playbackPorts: playbackPorts)
    }

    /// What jackwave says first when this server dies mid-take: jackd calls the client's
    /// shutdown callback; PipeWire's libjack never does, and jackwave notices the cycles
    /// stopped and no server listens (`ServerWatch`).
    public var deathNotice: String {
        self == .jackd ? "the JACK server shut down" : "the JACK server went away"
    }
}
