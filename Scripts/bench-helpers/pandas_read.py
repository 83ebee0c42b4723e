#!/usr/bin/env python3
"""The CSV anchor: pandas.read_csv (C engine) loading FILE, one warm-up (unless --no-warm-up)
then RUNS timed loads (warm page cache; the import of pandas is not timed). Prints one JSON
object: seconds of each load, their median, bytes, rows.
Usage: pandas_read.py FILE RUNS [--no-warm-up]"""
import json
import os
import statistics
import sys
import time

import pandas

path, runs = sys.argv[1], int(sys.argv[2])
size = os.path.getsize(path)
rows = None if "--no-warm-up" in sys.argv[3:] else len(pandas.read_csv(path, engine="c"))
seconds = []
for _ in range(runs):
    start = time.perf_counter()
    frame = pandas.read_csv(path, engine="c")
    seconds.append(time.perf_counter() - start)
    assert rows is None or len(frame) == rows
    rows = len(frame)
median = statistics.median(seconds)
print(json.dumps({"seconds": seconds, "median_seconds": median, "bytes": size, "rows": rows,
                  "bytes_per_second": size / median, "pandas_version": pandas.__version__}))
