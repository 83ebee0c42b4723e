"""Shared by the Python scripts in Scripts/ (not run by itself).

`run(main)`: SIGTERM and SIGHUP stop a script as Ctrl-C does, so its own clean-up runs (a
half-written output folder or `.partial` removed, nothing left for a later run to take as
whole), and an interrupted script exits 130 without a traceback; a `Failure` raised out of
`main` is said as `Error: MESSAGE` and exits with its status. `missing(path, folder)`: the
words for a path that is not the folder or file asked for.

Exit statuses are the `shake` tool's (sysexits.h): 64 a usage error, 65 bad data in an input,
66 an input missing or unreadable, 73 an output that cannot be made or written, 130 interrupted.
`ArgumentParser` is argparse's with them: a usage error exits 64 (argparse's own is 2), and
--help ends with the list of statuses.

    sys.dont_write_bytecode = True   # no __pycache__ in the repository
    sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
    import script_support
    ...
    parser = script_support.ArgumentParser(description=__doc__)
    ...
    if __name__ == "__main__":
        script_support.run(main)
"""
import argparse
import contextlib
import os
import signal
import sys

USAGE = 64           # EX_USAGE: the command line is wrong
DATA = 65            # EX_DATAERR: an input is not what it should be
NO_INPUT = 66        # EX_NOINPUT: an input is missing or cannot be read
CANNOT_CREATE = 73   # EX_CANTCREAT: an output exists already, or cannot be made or written
INTERRUPTED = 130    # Ctrl-C, SIGTERM or SIGHUP (128 + SIGINT, as a shell reports Ctrl-C)

STATUSES = {
    0: "done",
    USAGE: "usage error: an unknown option, a value that means nothing, options that do not go together",
    DATA: "an input is not what it should be (the message names the file, and the line where there is one)",
    NO_INPUT: "an input is missing or cannot be read",
    CANNOT_CREATE: "an output exists already (nothing is overwritten), or cannot be made or written",
    INTERRUPTED: "interrupted (Ctrl-C, SIGTERM or SIGHUP)",
}


def exit_statuses(statuses=None):
    """The `exit status:` section of a script's --help: `STATUSES`, with `statuses` (status:
    text, or None to leave one out) changing or adding lines."""
    table = {**STATUSES, **(statuses or {})}
    lines = [f"  {status:<4} {text}" for status, text in sorted(table.items()) if text is not None]
    return "exit status:\n" + "\n".join(lines)


class ArgumentParser(argparse.ArgumentParser):
    """argparse's parser with the `shake` tool's exit statuses: `error` (argparse's own usage
    errors, and the script's) exits 64 after the usage line, or, given another `status`, says
    `Error: MESSAGE` as `fail` does and exits with it; --help ends with the statuses
    (`statuses` as `exit_statuses` takes them). Help text is shown as written."""

    def __init__(self, statuses=None, **kwargs):
        kwargs.setdefault("formatter_class", argparse.RawDescriptionHelpFormatter)
        kwargs.setdefault("epilog", exit_statuses(statuses))
        super().__init__(**kwargs)

    def error(self, message, status=USAGE):
        # A usage error is said with the usage line, as argparse does; any other (a missing
        # input, an output that exists) as the other scripts and `shake` say theirs.
        if status != USAGE:
            fail(message, status)
        self.print_usage(sys.stderr)
        self.exit(status, f"{self.prog}: error: {message}\n")


class Failure(Exception):
    """An error that ends a script: said as `Error: MESSAGE` (by `run`), exiting `status`
    (default 65, bad data)."""

    def __init__(self, message, status=DATA):
        super().__init__(message)
        self.status = status


@contextlib.contextmanager
def stop_signals_held():
    """Holds SIGINT, SIGTERM and SIGHUP back while the block runs (a folder made and its name
    kept, so that the clean-up can find it), and delivers one that came meanwhile after it."""
    held = {signal.SIGINT, signal.SIGTERM, signal.SIGHUP}
    before = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def fail(message, status):
    """Says `Error: MESSAGE` on stderr and exits `status`."""
    print(f"Error: {message}", file=sys.stderr)
    sys.exit(status)


def _stop(signum, frame):
    raise KeyboardInterrupt


def run(main):
    """Calls `main` with SIGTERM and SIGHUP raising KeyboardInterrupt; exits 130 on one, and
    with a `Failure`'s status (its message said) on one."""
    for name in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(name, _stop)
    # A parent may have started the script with them blocked (a blocked signal never reaches
    # the handler: the script ran on to the end); started by a test runner, it was.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGHUP})
    try:
        main()
    except KeyboardInterrupt:
        sys.exit(INTERRUPTED)
    except Failure as failure:
        fail(failure, failure.status)


def missing(path, folder):
    """Why `path` is not the folder (`folder`) or file asked for: not there (or a broken
    symbolic link), or another kind of file."""
    kind = "folder" if folder else "file"
    if not os.path.lexists(path):
        return f"no such {kind}"
    if not os.path.exists(path):
        return f"no such {kind} (a broken symbolic link)"
    if folder:
        return "not a folder"
    if os.path.isdir(path):
        return "a folder, not a file"
    return "not a regular file" if not os.path.isfile(path) else "not readable"
