#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A pthread mutex, with a condition variable for the threads that wait under it.
public final class Lock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    public init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    public func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Waits for a ``signal()`` or ``broadcast()``; call with the lock held (inside ``withLock(_:)``).
    public func wait() { pthread_cond_wait(condition, mutex) }

    /// Wakes one thread waiting in ``wait()``; call with the lock held.
    public func signal() { pthread_cond_signal(condition) }

    /// Wakes every thread waiting in ``wait()``; call with the lock held.
    public func broadcast() { pthread_cond_broadcast(condition) }
}
