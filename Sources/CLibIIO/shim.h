#ifndef CLIBIIO_SHIM_H
#define CLIBIIO_SHIM_H

/* libiio 0.24 (Debian libiio-dev). ShakeIIO calls it only through its internal LibIIO wrapper,
 * so that the 1.0 API change stays in one file. */
#include <iio.h>
#include <errno.h>

/* errno is a macro over a thread-local location; Glibc's Swift overlay exposes it too, this keeps
 * the wrapper independent of which C library overlay is present. */
static inline int CLibIIO_errno(void) { return errno; }

#endif /* CLIBIIO_SHIM_H */
