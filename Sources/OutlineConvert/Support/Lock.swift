#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A mutual-exclusion lock over a pthread mutex, with a condition to wait on (the part of
/// Foundation's `NSLock` and `NSCondition` we use, without loading all of Foundation).
package final class Lock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    /// An unlocked lock.
    package init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` holding the lock.
    package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Inside `withLock`: lets the lock go until `broadcast()` is called, then takes it again.
    func wait() { pthread_cond_wait(condition, mutex) }

    /// Wakes every thread in `wait()`.
    func broadcast() { pthread_cond_broadcast(condition) }
}
