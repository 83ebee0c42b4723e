#!/usr/bin/env python3
"""Run a command and report what it cost: wall time from start to exit, CPU time and peak
resident memory of that one process, from wait4's rusage (the same figures /usr/bin/time -v
prints; ru_maxrss is in KiB on Linux).

As a program:  rusage.py OUT.json -- COMMAND [ARGS...]
  runs COMMAND with stdout discarded, writes the JSON object to OUT.json and exits with
  COMMAND's status (used inside the IIO emulator, whose namespace hides nothing under /work).
"""
import json
import os
import subprocess
import sys
import time


def run(command, stdout=subprocess.DEVNULL):
    """Runs `command`, returns {wall_seconds, user_seconds, system_seconds, cpu_seconds,
    max_rss_bytes, status}."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=stdout)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    return {
        "wall_seconds": wall,
        "user_seconds": usage.ru_utime,
        "system_seconds": usage.ru_stime,
        "cpu_seconds": usage.ru_utime + usage.ru_stime,
        "max_rss_bytes": usage.ru_maxrss * 1024,
        "status": process.returncode,
    }


if __name__ == "__main__":
    if len(sys.argv) < 4 or sys.argv[2] != "--":
        sys.exit("usage: rusage.py OUT.json -- COMMAND [ARGS...]")
    result = run(sys.argv[3:])
    with open(sys.argv[1] + ".tmp", "w") as out:
        json.dump(result, out)
    os.replace(sys.argv[1] + ".tmp", sys.argv[1])
    sys.exit(result["status"])
