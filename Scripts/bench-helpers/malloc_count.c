// Counts heap allocations for `shake-bench --count-allocations`.
// Build: cc -O2 -shared -fPIC -o libshakebench_malloc_count.so malloc_count.c
// Use:   LD_PRELOAD=./libshakebench_malloc_count.so shake-bench --count-allocations detector
// Every allocating entry point of glibc's malloc family is wrapped: it bumps one counter and
// calls glibc's own implementation (the __libc_* aliases glibc exports for exactly this).
// shake-bench finds shakebench_allocation_count with dlsym and reads it around one run.
// Any other program: with SHAKEBENCH_ALLOCATION_REPORT=FILE set, the count at exit is written
// to FILE (e.g. for a whole `shake replay` process).
#include <fcntl.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

static atomic_ulong shakebench_allocations;

static void shakebench_count(void) {
    atomic_fetch_add_explicit(&shakebench_allocations, 1, memory_order_relaxed);
}

unsigned long shakebench_allocation_count(void) {
    return atomic_load_explicit(&shakebench_allocations, memory_order_relaxed);
}

void *malloc(size_t size) { shakebench_count(); return __libc_malloc(size); }
void *calloc(size_t count, size_t size) { shakebench_count(); return __libc_calloc(count, size); }
void *realloc(void *pointer, size_t size) { shakebench_count(); return __libc_realloc(pointer, size); }
void *memalign(size_t alignment, size_t size) { shakebench_count(); return __libc_memalign(alignment, size); }
void *aligned_alloc(size_t alignment, size_t size) { shakebench_count(); return __libc_memalign(alignment, size); }

int posix_memalign(void **result, size_t alignment, size_t size) {
    // posix_memalign requires a power-of-two multiple of sizeof(void *); EINVAL (22) otherwise.
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0) return 22;
    shakebench_count();
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL) return 12; // ENOMEM
    *result = pointer;
    return 0;
}

__attribute__((destructor)) static void shakebench_report(void) {
    const char *path = getenv("SHAKEBENCH_ALLOCATION_REPORT");
    if (path == NULL || *path == 0) return;
    char text[32];
    int length = snprintf(text, sizeof text, "%lu\n", shakebench_allocation_count());
    int descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (descriptor < 0) return;
    if (write(descriptor, text, (size_t)length) != length) perror(path);
    close(descriptor);
}
