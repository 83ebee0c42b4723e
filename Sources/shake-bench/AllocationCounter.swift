#if canImport(Glibc)
import Glibc
#endif

/// Reads the heap-allocation counter that `Scripts/bench-helpers/malloc_count.c` exports when it
/// is preloaded (`LD_PRELOAD=…/libshakebench_malloc_count.so`): the number of `malloc`, `calloc`,
/// `realloc`, `posix_memalign`, `aligned_alloc` and `memalign` calls since the process started.
struct AllocationCounter {
    private let function: @convention(c) () -> UInt

    /// Nil when the counter library is not preloaded.
    init?() {
        // A null handle is RTLD_DEFAULT: search every loaded object.
        guard let symbol = dlsym(nil, "shakebench_allocation_count") else { return nil }
        function = unsafeBitCast(symbol, to: (@convention(c) () -> UInt).self)
    }

    /// Allocations so far.
    func count() -> Int { Int(function()) }
}
