#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A mutex and a condition variable on it (what `NSCondition` is), from pthreads.
///
/// `@unchecked Sendable`: the pthread objects are made for use from several threads; they live
/// at fixed addresses (allocated here) for the object's life.
package final class ThreadCondition: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    package init() {
        mutex.initialize(to: pthread_mutex_t())
        condition.initialize(to: pthread_cond_t())
        let mutexResult = pthread_mutex_init(mutex, nil)
        let conditionResult = pthread_cond_init(condition, nil)
        precondition(mutexResult == 0 && conditionResult == 0, "pthread_mutex_init or pthread_cond_init failed")
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    package func lock() { pthread_mutex_lock(mutex) }
    package func unlock() { pthread_mutex_unlock(mutex) }
    /// Unlocks, waits for a `broadcast` (or a spurious wake-up: wait in a loop), locks again.
    package func wait() { pthread_cond_wait(condition, mutex) }
    /// Wakes every thread waiting.
    package func broadcast() { pthread_cond_broadcast(condition) }
}
