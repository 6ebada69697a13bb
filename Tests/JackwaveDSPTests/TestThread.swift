import Glibc
import Testing

/// Runs `body` on a new POSIX thread (the rings are built for plain threads, not tasks:
/// a spinning consumer must not occupy a cooperative-pool thread).
final class TestThread: @unchecked Sendable {
    private var handle = pthread_t()
    private let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) throws {
        self.body = body
        let context = Unmanaged.passRetained(self).toOpaque()
        let rc = pthread_create(&handle, nil, { raw in
            let me = Unmanaged<TestThread>.fromOpaque(raw!).takeRetainedValue()
            me.body()
            return nil
        }, context)
        if rc != 0 { Unmanaged<TestThread>.fromOpaque(context).release() }   // no thread took it
        try #require(rc == 0, "pthread_create failed: \(rc)")
    }
    func join() { pthread_join(handle, nil) }
}
