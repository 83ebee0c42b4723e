"""Shared by the Python scripts in Scripts/ (not run by itself).

`run(main)`: SIGTERM and SIGHUP stop a script as Ctrl-C does, so its own clean-up runs (a
half-written output folder or `.partial` removed, nothing left for a later run to take as
whole), and an interrupted script exits 130 without a traceback. `missing(path, folder)`: the
words for a path that is not the folder or file asked for.

    sys.dont_write_bytecode = True   # no __pycache__ in the repository
    sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
    import script_support
    ...
    if __name__ == "__main__":
        script_support.run(main)
"""
import os
import signal
import sys


def _stop(signum, frame):
    raise KeyboardInterrupt


def run(main):
    """Calls `main` with SIGTERM and SIGHUP raising KeyboardInterrupt; exits 130 on one."""
    for name in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(name, _stop)
    # A parent may have started the script with them blocked (a blocked signal never reaches
    # the handler: the script ran on to the end); started by a test runner, it was.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGHUP})
    try:
        main()
    except KeyboardInterrupt:
        sys.exit(130)


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
