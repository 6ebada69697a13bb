import CSndfile

/// The bytes an encoder without a file produces (`SoundFile(encodingInto:)`), for a live
/// stream to send on. libsndfile sees a file that only grows: a write behind the end (MP3's
/// Xing frame, rewritten at close) would change bytes already taken, so only its part past
/// the end is kept. Reads find nothing. The encoder's thread only.
public final class EncodedBytes: @unchecked Sendable {
    /// Bytes written and not yet taken.
    private var pending: [UInt8] = []
    /// Bytes libsndfile has written in all (its file's length), and where it writes next.
    public private(set) var length: Int64 = 0
    private var position: Int64 = 0
    /// Bytes written behind the end and dropped (see the type's note).
    public private(set) var rewrittenBytes: Int64 = 0

    public init() { pending.reserveCapacity(1 << 16) }

    /// Bytes waiting to be taken.
    public var count: Int { pending.count }

    /// Hands the waiting bytes to `body` and forgets them.
    public func take<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        defer { pending.removeAll(keepingCapacity: true) }
        return pending.withUnsafeBufferPointer(body)
    }

    fileprivate func write(_ bytes: UnsafeRawPointer, count: Int64) -> Int64 {
        let behind = max(0, min(count, length - position))
        rewrittenBytes += behind
        if count > behind {
            pending.append(contentsOf: UnsafeRawBufferPointer(start: bytes + Int(behind), count: Int(count - behind)))
        }
        position += count
        length = max(length, position)
        return count
    }

    fileprivate func seek(_ offset: Int64, whence: Int32) -> Int64 {
        let base: Int64 = whence == SEEK_CUR ? position : whence == SEEK_END ? length : 0
        position = min(max(0, base + offset), length)
        return position
    }

    /// libsndfile's callbacks, reaching this object through their `user_data` pointer.
    static let virtualIO = SF_VIRTUAL_IO(
        get_filelen: { user in sink(user).length },
        seek: { offset, whence, user in sink(user).seek(offset, whence: whence) },
        read: { _, _, _ in 0 },
        write: { bytes, count, user in
            guard let bytes else { return 0 }
            return sink(user).write(bytes, count: count)
        },
        tell: { user in sink(user).position })

    private static func sink(_ user: UnsafeMutableRawPointer?) -> EncodedBytes {
        Unmanaged<EncodedBytes>.fromOpaque(user!).takeUnretainedValue()
    }
}
