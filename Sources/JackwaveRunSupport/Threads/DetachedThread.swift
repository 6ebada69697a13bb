import Glibc

/// A thread of its own for a long job off the main thread (the recording writer, the
/// close watchdog): `pthread_create` then `pthread_detach`, what Foundation's `Thread` did
/// here, without linking Foundation. Default attributes (the stack size `ulimit -s` says).
package enum DetachedThread {
    /// Starts `body` on a new thread; false if the system refused one.
    @discardableResult
    package static func start(_ body: @escaping @Sendable () -> Void) -> Bool {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, { context in
            Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
            return nil
        }, context)
        guard status == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            return false
        }
        pthread_detach(thread)
        return true
    }

    /// The closure, boxed to cross `pthread_create`'s `void *`.
    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}
