#!/usr/bin/env python3
"""Renders one Scripts/bench run (the JSON it saves in .build/bench/last-run.json, or the
object `Scripts/bench --json` prints) as the Markdown table and machine line of
docs/performance.md, so the document quotes figures from a single run.
Usage: markdown.py [RUN.json]"""
import json
import re
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run_bench import rows  # noqa: E402

default = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".build", "bench", "last-run.json")
if len(sys.argv) > 2 or sys.argv[1:] in (["-h"], ["--help"]):
    print(__doc__)
    sys.exit(0 if len(sys.argv) == 2 else 64)
path = sys.argv[1] if len(sys.argv) > 1 else default
try:
    with open(path) as file:
        r = json.load(file)
except (OSError, ValueError) as error:
    print(f"Error: {path}: {error} (run Scripts/bench first, or give the JSON of one run)", file=sys.stderr)
    sys.exit(66)
m = r["machine"]
print(f"Measured {r['date']} with `Scripts/bench` on {m['nproc']} cores of an {m['cpu']}, "
      f"{m['memory_bytes'] / 2**30:.0f} GiB of memory, Linux {m['kernel']}, {m['swift']}, {m['cc']}, "
      f"Python {m['python']} with pandas {r['pandas_version']}; load average at the start "
      f"{m['load_average_at_start'][0]:.2f} (the machine is shared). Figures are medians of {r['runs']} rounds "
      f"after a warm-up round; in each round every figure is measured right after its anchor, and a ratio is "
      f"the median of the per-round ratios (so it need not equal the quotient of the two medians), "
      f"with the lowest and highest round in brackets.")
print()
print("| figure | value | anchor | ratio | target | met? |")
print("|---|---|---|---|---|---|")
for figure, value, anchor, anchor_value, ratio, target, met in rows(r):
    anchor_text = f"{anchor}: {anchor_value}" if anchor and anchor_value else (anchor or anchor_value)
    target = re.sub(r"(\d)x", "\\1×", target.replace(">=", "≥").replace("<=", "≤"))
    ratio = re.sub(r"(\d)x", "\\1×", ratio).replace("-", "–")
    print(f"| {figure} | {value} | {anchor_text} | {ratio} | {target} | {met} |")
if r["live_cpu_seconds_per_million_samples"] is None:
    print(f"\nLive path not measured: {r['live_note']}.")
else:
    print(f"\nLive path: {r['live_note']}.")
