import Glibc

/// A mutex with `lock()` and `unlock()` (`pthread_mutex_*`), for the terminal's frames and
/// messages: what Foundation's `NSLock` did, without linking Foundation.
final class PlainLock: @unchecked Sendable {
    /// Allocated once and never moved: a pthread mutex must keep its address.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// `pthread_mutex_lock`.
    func lock() { pthread_mutex_lock(mutex) }
    /// `pthread_mutex_unlock`.
    func unlock() { pthread_mutex_unlock(mutex) }
}
