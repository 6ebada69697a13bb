import Dispatch
import FoundationEssentials
import Glibc
import JackwaveDSP
import JackwaveRunSupport
import JackwaveSoundFiles
import Synchronization

/// A live stream to an Icecast server (`--stream`) on a thread of its own: it takes the
/// frames the writer wrote (`feed`), encodes them into memory (`SoundFile(encodingInto:)`)
/// and sends the bytes with libshout (`IcecastConnection`).
///
/// It never slows or cuts the recording: the writer only copies into `feed`'s ring, and a
/// stream that falls behind drops frames there, counted. While the server is away the frames
/// are read and let go; each connection starts a new encoder, so that listeners (and
/// Icecast) get the codec's headers again.
public final class Streamer: @unchecked Sendable {
    public let target: StreamTarget
    public let feed: StreamFeed
    private let password: String
    private let compression: CompressionSettings?
    private let events: @Sendable (StreamEvent, Int64) -> Void
    private let thread = WorkerThread(name: "jackwave-stream")

    /// How long a connection may take to log in, and how long the server may leave bytes
    /// queued without taking any (a server that hangs), in seconds, before it is given up.
    static let connectSeconds = 10.0
    static let stalledSeconds = 10.0
    /// Bytes libshout may hold for a slow server before the connection is given up: memory's
    /// bound, whatever the bit rate.
    static let queueLimit = 4 << 20
    /// Sleep between passes when nothing arrives: the writer hands over every 100–200 ms.
    static let napSeconds = 0.05
    /// How long the end of a run gives the last bytes to leave.
    static let finalSendSeconds = 2.0
    /// Frames encoded per libsndfile call.
    static let chunkFrames = 4096

    /// Totals, for the summary: frames sent to the encoder, connections made, frames not
    /// streamed while the server was away. Written by the thread; read after `wait`.
    public private(set) var streamedFrames: Int64 = 0
    public private(set) var connections = 0
    public private(set) var missedFrames: Int64 = 0
    /// Frames of silence sent while the JACK server was away (`StreamFeed.setServerAway`).
    public private(set) var awaySilenceFrames: Int64 = 0

    /// A stream of `target` with `password`, fed by a `feed` of `channels` at `sampleRate` for
    /// a writer whose ring holds `writerFrames`; `compression` is `--quality`'s, if given.
    public init(target: StreamTarget, password: String, channels: Int, sampleRate: Int, writerFrames: Int,
                compression: CompressionSettings?, events: @escaping @Sendable (StreamEvent, Int64) -> Void) {
        self.target = target
        self.password = password
        self.compression = compression
        self.events = events
        feed = StreamFeed(channels: channels, sampleRate: sampleRate, writerFrames: writerFrames)
    }

    /// Starts the thread, which connects at once.
    public func start() { thread.start { [self] in run() } }

    /// Waits up to `timeout` seconds for the thread to end (after the feed's `inputEnded`);
    /// true once it has.
    public func wait(timeout: Double) -> Bool { thread.wait(timeout: timeout) }

    // MARK: The streamer's thread

    /// Where the stream stands.
    private enum Link {
        case waiting(until: Double)
        case connecting(IcecastConnection, since: Double)
        case streaming(IcecastConnection, Encoder, since: Double)
    }

    /// An encoder writing into memory, one per connection.
    private struct Encoder {
        let file: SoundFile
        let bytes: EncodedBytes
    }

    private var backoff = RetryBackoff()
    private var reportedDrops: Int64 = 0
    /// Since when the server has taken no byte while some were queued, if it has not; bytes
    /// handed to libshout on this connection, and how many of them had left at the last look.
    private var stalledSince: Double?
    private var handedBytes: Int64 = 0
    private var sentBytes: Int64 = 0
    private var missedSinceLastConnection: Int64 = 0
    /// While the JACK server is away: since when (monotonic), and the silence sent since.
    private var awaySince: Double?
    private var awaySent: Int64 = 0
    /// Zeros for the silence sent while the server is away, `chunkFrames` at a time.
    private lazy var zeros = [Float](repeating: 0, count: Self.chunkFrames * feed.channels)

    private func run() {
        var link = Link.waiting(until: 0)
        while true {
            let ending = feed.inputDone.load(ordering: .acquiring)
            reportDrops()
            link = advance(link)
            let regions = feed.ring.readableRegions()
            if case let .streaming(connection, encoder, since) = link {
                if let failure = stream(regions, connection, encoder) {
                    link = lose(connection, encoder, reason: failure, connectedFor: now() - since)
                }
            } else {
                missedFrames += Int64(regions.count)
                missedSinceLastConnection += Int64(regions.count)
            }
            feed.ring.commitRead(regions.count)
            if case let .streaming(connection, encoder, since) = link, let failure = fillWhileAway(connection, encoder) {
                link = lose(connection, encoder, reason: failure, connectedFor: now() - since)
            }
            if ending && regions.count == 0 { break }
            if regions.count == 0 { feed.arrived.nap(Self.napSeconds) }
        }
        reportDrops()
        if case let .streaming(connection, encoder, _) = link { finish(connection, encoder) }
        if case let .connecting(connection, _) = link { connection.close() }
    }

    /// Moves a waiting or connecting link on: tries the server when it is time, and starts
    /// streaming when the login has gone through.
    private func advance(_ link: Link) -> Link {
        switch link {
        case let .waiting(until):
            guard now() >= until else { return link }
            let connection: IcecastConnection
            do throws(LoadFailure) {
                connection = try IcecastConnection(target: target, password: password)
            } catch {
                return failed(error.reason)
            }
            return connecting(connection, connection.open(), since: now())
        case let .connecting(connection, since):
            if now() - since > Self.connectSeconds {
                connection.close()
                return failed("no answer within \(Int(Self.connectSeconds)) s")
            }
            return connecting(connection, connection.poll(), since: since)
        case .streaming:
            return link
        }
    }

    private func connecting(_ connection: IcecastConnection, _ state: IcecastConnection.State, since: Double) -> Link {
        switch state {
        case .pending:
            return .connecting(connection, since: since)
        case let .failed(reason):
            connection.close()
            return failed(reason)
        case .connected:
            let bytes = EncodedBytes()
            let file: SoundFile
            do throws(SoundFileError) {
                file = try SoundFile(encodingInto: bytes, format: target.codec.format.formatWord(depth: nil)!,
                                     channels: feed.channels, sampleRate: feed.sampleRate)
                try file.applyCodecSettings(compression)
            } catch {
                connection.close()
                return failed("the encoder cannot start: \(error.reason)")
            }
            connections += 1
            (stalledSince, handedBytes, sentBytes) = (nil, 0, 0)
            events(.connected(attempt: connections, missedFrames: connections == 1 ? 0 : missedSinceLastConnection), position)
            missedSinceLastConnection = 0
            return .streaming(connection, Encoder(file: file, bytes: bytes), since: now())
        }
    }

    /// An attempt failed: said, and the next one scheduled.
    private func failed(_ reason: String) -> Link {
        let wait = backoff.next()
        events(.connectFailed(reason: reason, retrySeconds: wait), position)
        return .waiting(until: now() + wait)
    }

    /// A connection went: said, its encoder dropped, the next attempt scheduled.
    private func lose(_ connection: IcecastConnection, _ encoder: Encoder, reason: String, connectedFor: Double) -> Link {
        connection.close()
        _ = encoder.file.close()
        let wait = backoff.next(afterConnectionOf: connectedFor)
        events(.lost(reason: reason, retrySeconds: wait), position)
        return .waiting(until: now() + wait)
    }

    /// Encodes and sends what the ring holds; the failure that ends the connection, if any.
    private func stream(_ regions: RingRegions<Float>, _ connection: IcecastConnection, _ encoder: Encoder) -> String? {
        for (base, count) in [(regions.first, regions.firstCount), (regions.second, regions.secondCount)] {
            var done = 0
            while done < count {
                let n = min(Self.chunkFrames, count - done)
                guard encoder.file.write(base + done * feed.channels, count: n) == n else {
                    return "the encoder failed: \(encoder.file.lastError)"
                }
                done += n
                streamedFrames += Int64(n)
            }
        }
        return send(encoder, connection)
    }

    /// While the JACK server is away, the silence its frames would have been, at the pace of
    /// the monotonic clock, so that the connection stays up; the failure, if any.
    private func fillWhileAway(_ connection: IcecastConnection, _ encoder: Encoder) -> String? {
        guard feed.serverAway.load(ordering: .relaxed) else {
            awaySince = nil
            return nil
        }
        let t = now()
        if awaySince == nil { (awaySince, awaySent) = (t, 0) }
        let due = Int64((t - awaySince!) * Double(feed.sampleRate)) - awaySent
        guard due > 0 else { return nil }
        var left = due
        while left > 0 {
            let n = Int(min(left, Int64(Self.chunkFrames)))
            let wrote = zeros.withUnsafeBufferPointer { encoder.file.write($0.baseAddress!, count: n) }
            guard wrote == n else { return "the encoder failed: \(encoder.file.lastError)" }
            left -= Int64(n)
        }
        awaySent += due
        awaySilenceFrames += due
        return send(encoder, connection)
    }

    /// Hands what the encoder made to the connection and checks that the server takes it;
    /// the failure that ends the connection, if any.
    private func send(_ encoder: Encoder, _ connection: IcecastConnection) -> String? {
        handedBytes += Int64(encoder.bytes.count)
        if let failure = encoder.bytes.take({ connection.send($0) }) { return failure }
        // The server must take what is queued: a hung one is given up, not waited for.
        let queued = connection.queuedBytes
        if queued > Self.queueLimit { return "the server is too slow (\(queued) bytes queued)" }
        let sent = handedBytes - Int64(queued)
        if queued == 0 || sent > sentBytes { stalledSince = queued == 0 ? nil : now() }
        sentBytes = sent
        if let since = stalledSince, now() - since > Self.stalledSeconds {
            return "the server took no data for \(Int(Self.stalledSeconds)) s"
        }
        return nil
    }

    /// The end of the run: the encoder's last bytes (its final page or frame) are sent, and
    /// given `finalSendSeconds` to leave.
    private func finish(_ connection: IcecastConnection, _ encoder: Encoder) {
        _ = encoder.file.close()
        _ = encoder.bytes.take { connection.send($0) }
        let deadline = now() + Self.finalSendSeconds
        while connection.queuedBytes > 0 && now() < deadline {
            if connection.send(UnsafeBufferPointer(start: nil, count: 0)) != nil { break }
            usleep(10_000)
        }
        connection.close()
    }

    /// Frames the stream dropped since the last report, as one event.
    private func reportDrops() {
        let dropped = feed.droppedFrames.load(ordering: .relaxed)
        guard dropped > reportedDrops else { return }
        events(.dropped(frames: dropped - reportedDrops), position)
        reportedDrops = dropped
    }

    /// The stream's place on the recording's timeline.
    private var position: Int64 { feed.offeredFrames.load(ordering: .relaxed) }

    /// Seconds on a monotonic clock (a stepped wall clock must not stall the retries).
    private func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
}
