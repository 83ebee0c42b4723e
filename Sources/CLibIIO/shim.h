#ifndef CLIBIIO_SHIM_H
#define CLIBIIO_SHIM_H

/* libiio 0.24 (Debian libiio-dev). ShakeIIO calls it only through its internal LibIIO wrapper,
 * so that the 1.0 API change stays in one file. */
#if __has_include(<iio.h>)
#include <iio.h>
#else
#error "libiio is not installed: ShakeIIO (and the shake tool) need Debian's libiio-dev (Scripts/bootstrap installs it); ShakeDetection, ShakeRecording and ShakeUndo do not"
#endif
#include <errno.h>
#include <stdio.h>

/* errno is a macro over a thread-local location; Glibc's Swift overlay exposes it too, this keeps
 * the wrapper independent of which C library overlay is present. */
static inline int CLibIIO_errno(void) { return errno; }

/* libiio 0.24 prints its warnings and errors with fprintf(stderr, ...). Swift 6 refuses to touch
 * the C global `stderr` (shared mutable state), so it is swapped here; the caller serialises
 * calls (ShakeIIO's LibIIODiagnostics holds a mutex). Returns the stream it replaced. */
static inline FILE *CLibIIO_exchangeStderr(FILE *stream) {
    FILE *previous = stderr;
    stderr = stream;
    return previous;
}

#endif /* CLIBIIO_SHIM_H */
