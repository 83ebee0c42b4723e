#!/usr/bin/env python3
"""Runs every ShakeKit benchmark next to its anchor, in one go, and prints a table or one JSON
object. Called by Scripts/bench, which builds and generates what this needs first.

Usage: run_bench.py --root DIR --bench-dir DIR --csv FILE --csv-100mb FILE --csv-1gb FILE
                    [--live-csv FILE] [--samples N] [--runs N] [--json]
"""
import argparse
import datetime
import json
import os
import platform
import re
import statistics
import subprocess
import sys

# Targets from issue 6.
TARGET_DETECTOR_VS_C = 0.8
TARGET_CSV_VS_PANDAS = 2.5
TARGET_REPLAY_VS_PANDAS = 2.0
TARGET_PEAK_RSS_BYTES = 32 * 1024 * 1024
# "Flat in the file's size": the 1 GB figure at most this many times the 100 MB figure.
TARGET_RSS_GROWTH = 1.1


def log(message):
    sys.stderr.write(f"bench: {message}\n")
    sys.stderr.flush()


RUSAGE = None  # path of the compiled rusage.c wrapper, set in main()


COUNTER = None  # path of the compiled malloc_count.c library, set in main()


def measured(command, options=()):
    """Runs `command` under the rusage wrapper: {wall_seconds, cpu_seconds, max_rss_bytes, status, ...}."""
    completed = subprocess.run([RUSAGE, "-"] + list(options) + ["--"] + command, stdout=subprocess.PIPE, text=True)
    return json.loads(completed.stdout)


def counting(report):
    """rusage options that preload the allocation counter into the command alone and have it
    write its count at exit to `report`."""
    if os.path.exists(report):
        os.remove(report)
    return ["--env", f"LD_PRELOAD={COUNTER}", "--env", f"SHAKEBENCH_ALLOCATION_REPORT={report}"]


def replay_allocations(shake, path, bench_dir):
    """Heap allocations of a whole `shake replay FILE` process, per row of the file."""
    report = os.path.join(bench_dir, "replay-allocations.txt")
    result = measured([shake, "replay", path], counting(report))
    if result["status"] != 0 or not os.path.exists(report):
        raise SystemExit(f"bench: counting allocations of shake replay {path} failed")
    rows = sum(1 for _ in open(path, "rb")) - 1
    return int(open(report).read()) / rows


def run_json(command, env=None):
    output = subprocess.run(command, check=True, stdout=subprocess.PIPE, env=env, text=True).stdout
    return json.loads(output)


def reference_c_once(binary, samples):
    """One run of the C reference: {samples_per_second, shakes} (it times its own loop)."""
    output = subprocess.run([binary, str(samples)], check=True, stdout=subprocess.PIPE, text=True).stdout
    match = re.search(r"shakes=(\d+) sec=([\d.]+) Msamples_per_s", output)
    if not match:
        raise SystemExit(f"bench: unexpected output from {binary}: {output!r}")
    return {"samples_per_second": samples / float(match.group(2)), "shakes": int(match.group(1))}


def pandas_once(path):
    """One timed pandas.read_csv load of `path` in a fresh Python (import not timed)."""
    helper = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pandas_read.py")
    return run_json([sys.executable, helper, path, "1", "--no-warm-up"])


def shake_bench(binary, arguments, env=None):
    report = run_json([binary, "--json"] + arguments, env=env)
    if report["build"] != "release":
        raise SystemExit("bench: shake-bench is not a release build")
    return {m["name"]: m for m in report["benchmarks"]}


def replay_once(shake, path):
    """`shake replay FILE`, process start to exit, under the rusage wrapper."""
    result = measured([shake, "replay", path])
    if result["status"] != 0:
        raise SystemExit(f"bench: shake replay {path} exited with status {result['status']}")
    return result


def peak_rss(shake, path):
    result = measured([shake, "replay", path])
    if result["status"] != 0:
        raise SystemExit(f"bench: shake replay {path} exited with status {result['status']}")
    return result


def recording_span(path):
    """(first, last) sample time of a canonical recording, seconds."""
    first = None
    with open(path, "rb") as f:
        for line in f:
            if line[:1].isdigit() or line[:1] in (b"-", b"."):
                first = float(line.split(b",")[0])
                break
        f.seek(max(0, os.path.getsize(path) - 4096))
        last = float(f.read().strip().split(b"\n")[-1].split(b",")[0])
    return first, last


def live(root, shake, path, bench_dir):
    """`shake live` reading the emulated IIO device (Scripts/iio-emulator --fast: as fast as
    the reader takes them), the detector running. Returns (rusage of shake live with
    cpu_seconds_per_million_samples and allocations_per_sample, or None; note)."""
    emulator = os.path.join(root, "Scripts", "iio-emulator")
    if not os.path.exists(emulator):
        return None, "Scripts/iio-emulator is not in this checkout (branch iio not merged yet)"
    probe = subprocess.run([shake, "help", "live"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if probe.returncode != 0:
        return None, "`shake live` is not in this build (branch iio not merged yet)"
    first, last = recording_span(path)
    # Stop half a second of samples before the recording ends, so live ends by --duration
    # (exit 0) and not by the device stalling.
    duration = last - first - 0.5
    out, err = os.path.join(bench_dir, "live-rusage.json"), os.path.join(bench_dir, "live-stderr.txt")
    report = os.path.join(bench_dir, "live-allocations.txt")
    for stale in (out, err):
        if os.path.exists(stale):
            os.remove(stale)
    # The allocation counter costs an atomic increment per allocation: nothing next to the
    # system calls measured here.
    command = [emulator, "--fast", path, "--", RUSAGE, out, "--stderr", err] + counting(report) + [
               "--", shake, "live", "--duration", f"{duration:.3f}"]
    completed = subprocess.run(command, stdout=subprocess.DEVNULL)
    messages = open(err).read() if os.path.exists(err) else ""
    match = re.search(r"in (\d+) samples", messages)
    if completed.returncode != 0 or not os.path.exists(out) or not match:
        return None, (f"`{' '.join(command)}` failed with status {completed.returncode}: "
                      f"{messages.strip()[-300:]}")
    result = json.load(open(out))
    samples = int(match.group(1))
    allocations = int(open(report).read()) if os.path.exists(report) else None
    result["allocations_per_sample"] = allocations / samples if allocations is not None else None
    result["samples"] = samples
    result["cpu_seconds_per_million_samples"] = result["cpu_seconds"] / (samples / 1e6)
    return (result,
            f"`shake live` read {samples} samples from the emulated device (iio-emulator --fast) in "
            f"{result['wall_seconds']:.2f} s wall, {result['user_seconds']:.3f} s user + "
            f"{result['system_seconds']:.3f} s system CPU")


def machine():
    model = "unknown"
    memory = None
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
        for line in open("/proc/meminfo"):
            if line.startswith("MemTotal:"):
                memory = int(line.split()[1]) * 1024
    except OSError:
        pass
    swift = subprocess.run(["swift", "--version"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True).stdout.splitlines()
    cc = subprocess.run(["cc", "--version"], stdout=subprocess.PIPE, text=True).stdout.splitlines()
    return {"nproc": os.cpu_count(), "cpu": model, "memory_bytes": memory,
            "swift": next((l for l in swift if "Swift version" in l), "unknown").strip(),
            "cc": cc[0] if cc else "unknown", "python": platform.python_version(),
            "kernel": platform.release(), "load_average_at_start": os.getloadavg()}


def ratio(a, b):
    return a / b if a is not None and b else None


def main():
    parser = argparse.ArgumentParser()
    for name in ("--root", "--bench-dir", "--csv", "--csv-100mb", "--csv-1gb"):
        parser.add_argument(name, required=True)
    parser.add_argument("--live-csv")
    parser.add_argument("--samples", type=int, default=20_000_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    release = os.path.join(args.root, ".build", "release")
    bench, shake = os.path.join(release, "shake-bench"), os.path.join(release, "shake")
    ref = os.path.join(args.bench_dir, "ref_pipeline")
    counter = os.path.join(args.bench_dir, "libshakebench_malloc_count.so")
    global RUSAGE, COUNTER
    RUSAGE = os.path.join(args.bench_dir, "rusage")
    COUNTER = counter
    started = datetime.datetime.now(datetime.timezone.utc)
    info = machine()

    # Rounds: each round runs every figure right after its anchor, so both see the same load on
    # this shared machine; round 0 warms caches and is dropped. A figure is the median over the
    # rounds, a ratio the median of the per-round ratios.
    size = os.path.getsize(args.csv)
    rounds = []
    for index in range(args.runs + 1):
        log(f"round {index}/{args.runs}{' (warm-up, dropped)' if index == 0 else ''}: C reference, detector, "
            f"pandas, csv/pipeline/read, shake replay")
        c = reference_c_once(ref, args.samples)
        detector = shake_bench(bench, ["--runs", "1", "--samples", str(args.samples), "detector"])["detector"]
        pandas = pandas_once(args.csv)
        files = shake_bench(bench, ["--runs", "1", "csv", args.csv, "pipeline", args.csv, "read", args.csv])
        replayed = replay_once(shake, args.csv)
        if index == 0:
            continue
        rounds.append({
            "ref_c": c["samples_per_second"], "ref_c_shakes": c["shakes"],
            "detector": detector["per_second"], "detector_shakes": detector["output"]["shakes"],
            "pandas": size / pandas["median_seconds"], "pandas_seconds": pandas["median_seconds"],
            "pandas_rows": pandas["rows"], "pandas_version": pandas["pandas_version"],
            "csv": files["csv"]["per_second"], "csv_rows": files["csv"]["output"]["samples"],
            "pipeline": files["pipeline"]["per_second"], "read": files["read"]["per_second"],
            "replay": size / replayed["wall_seconds"], "replay_seconds": replayed["wall_seconds"],
        })
    med = lambda key: statistics.median(r[key] for r in rounds)
    per_round = lambda a, b: statistics.median(r[a] / r[b] for r in rounds)

    log("memory: peak RSS of shake replay on the 100 MB and 1 GB recordings")
    rss_100 = peak_rss(shake, args.csv_100mb)
    rss_1g = peak_rss(shake, args.csv_1gb)

    log("allocations: shake-bench --count-allocations (one run each)")
    env = dict(os.environ, LD_PRELOAD=counter)
    allocations = shake_bench(bench, ["--count-allocations", "--samples", "2000000", "detector",
                                      "csv", args.csv_100mb], env=env)
    replay_allocations_per_row = replay_allocations(shake, args.live_csv or args.csv_100mb, args.bench_dir)

    log("live: shake live on the emulated IIO device")
    live_result, live_note = live(args.root, shake, args.live_csv or args.csv_100mb, args.bench_dir)

    result = {
        "date": started.strftime("%Y-%m-%d %H:%M UTC"),
        "machine": info,
        "runs": args.runs,
        "detector_samples_per_second": med("detector"),
        "ref_c_samples_per_second": med("ref_c"),
        "detector_vs_ref_c": per_round("detector", "ref_c"),
        "detector_shakes": rounds[0]["detector_shakes"],
        "ref_c_shakes": rounds[0]["ref_c_shakes"],
        "detector_samples": args.samples,
        "csv_bytes_per_second": med("csv"),
        "pandas_bytes_per_second": med("pandas"),
        "csv_vs_pandas": per_round("csv", "pandas"),
        "csv_file_bytes": size,
        "csv_rows": rounds[0]["csv_rows"],
        "pandas_rows": rounds[0]["pandas_rows"],
        "pandas_version": rounds[0]["pandas_version"],
        "pipeline_bytes_per_second": med("pipeline"),
        "read_bytes_per_second": med("read"),
        "replay_bytes_per_second": med("replay"),
        "replay_seconds": med("replay_seconds"),
        "pandas_seconds": med("pandas_seconds"),
        "replay_vs_pandas": per_round("replay", "pandas"),
        "peak_rss_bytes_100mb": rss_100["max_rss_bytes"],
        "peak_rss_bytes_1gb": rss_1g["max_rss_bytes"],
        "peak_rss_growth_1gb_vs_100mb": ratio(rss_1g["max_rss_bytes"], rss_100["max_rss_bytes"]),
        "peak_rss_file_bytes": {"100mb": os.path.getsize(args.csv_100mb), "1gb": os.path.getsize(args.csv_1gb)},
        "replay_seconds_1gb": rss_1g["wall_seconds"],
        "detector_allocations_per_sample": allocations["detector"]["allocations_per_sample"],
        "csv_allocations_per_sample": allocations["csv"]["allocations_per_sample"],
        "replay_allocations_per_row": replay_allocations_per_row,
        "live_cpu_seconds_per_million_samples": live_result and live_result["cpu_seconds_per_million_samples"],
        "live_allocations_per_sample": live_result and live_result["allocations_per_sample"],
        "live_note": live_note,
        "raw": {"rounds": rounds, "rss_100mb": rss_100, "rss_1gb": rss_1g, "allocations": allocations,
                "live": live_result},
    }
    met = {
        "detector": result["detector_vs_ref_c"] >= TARGET_DETECTOR_VS_C,
        "csv": result["csv_vs_pandas"] >= TARGET_CSV_VS_PANDAS,
        "replay": result["replay_vs_pandas"] >= TARGET_REPLAY_VS_PANDAS,
        "peak_rss": rss_1g["max_rss_bytes"] <= TARGET_PEAK_RSS_BYTES
                    and result["peak_rss_growth_1gb_vs_100mb"] <= TARGET_RSS_GROWTH,
        "no_allocation_per_sample": result["detector_allocations_per_sample"] < 1e-3,
    }
    result["targets_met"] = met

    last = os.path.join(args.bench_dir, "last-run.json")
    with open(last + ".tmp", "w") as out:
        json.dump(result, out, sort_keys=True, indent=1)
    os.replace(last + ".tmp", last)
    log(f"saved {last} (Scripts/bench-helpers/markdown.py renders it for docs/performance.md)")

    if args.json:
        print(json.dumps(result, sort_keys=True))
    else:
        print(table(result))


def spread(r, figure, anchor):
    """` (lowest-highest)` of the per-round ratios figure/anchor, or "" without rounds."""
    rounds = r.get("raw", {}).get("rounds") or []
    if len(rounds) < 2:
        return ""
    ratios = [x[figure] / x[anchor] for x in rounds]
    return f" ({min(ratios):.2f}-{max(ratios):.2f})"


def rows(r):
    """The report's rows: (figure, value, anchor, anchor value, ratio, target, met).
    A ratio is followed by the lowest and highest per-round ratio."""
    mb = lambda b: f"{b / 1e6:.1f} MB"
    yes = lambda ok: "yes" if ok else "NO"
    table_rows = [
        ("detector throughput", f"{r['detector_samples_per_second'] / 1e6:.1f} M samples/s",
         "C reference (cc -O2 -march=native)", f"{r['ref_c_samples_per_second'] / 1e6:.1f} M samples/s",
         f"{r['detector_vs_ref_c']:.2f}x" + spread(r, "detector", "ref_c"), ">= 0.8x", yes(r["targets_met"]["detector"])),
        (f"CSV ingest ({mb(r['csv_file_bytes'])})", f"{r['csv_bytes_per_second'] / 1e6:.1f} MB/s",
         "pandas read_csv (C engine)", f"{r['pandas_bytes_per_second'] / 1e6:.1f} MB/s",
         f"{r['csv_vs_pandas']:.2f}x" + spread(r, "csv", "pandas"), ">= 2.5x", yes(r["targets_met"]["csv"])),
        ("replay end to end", f"{r['replay_bytes_per_second'] / 1e6:.1f} MB/s ({r['replay_seconds']:.2f} s)",
         "pandas load alone", f"{r['pandas_bytes_per_second'] / 1e6:.1f} MB/s ({r['pandas_seconds']:.2f} s)",
         f"{r['replay_vs_pandas']:.2f}x" + spread(r, "replay", "pandas"), ">= 2x", yes(r["targets_met"]["replay"])),
        ("peak RSS, replay 100 MB", f"{r['peak_rss_bytes_100mb'] / 2**20:.1f} MiB", "", "", "", "", ""),
        ("peak RSS, replay 1 GB", f"{r['peak_rss_bytes_1gb'] / 2**20:.1f} MiB", "replay 100 MB",
         f"{r['peak_rss_bytes_100mb'] / 2**20:.1f} MiB", f"{r['peak_rss_growth_1gb_vs_100mb']:.3f}x",
         "<= 32 MiB, <= 1.1x", yes(r["targets_met"]["peak_rss"])),
        ("live CPU per M samples",
         "n/a" if r["live_cpu_seconds_per_million_samples"] is None
         else f"{r['live_cpu_seconds_per_million_samples']:.1f} s", "", "", "", "", ""),
        ("allocations per sample, detector", f"{r['detector_allocations_per_sample']:.3g}", "", "", "", "0",
         yes(r["targets_met"]["no_allocation_per_sample"])),
        ("allocations per row, CSV reader", f"{r['csv_allocations_per_sample']:.3g}", "", "", "", "", ""),
        ("allocations per row, shake replay", f"{r['replay_allocations_per_row']:.3g}", "", "", "", "", ""),
        ("allocations per sample, shake live", "n/a" if r["live_allocations_per_sample"] is None
         else f"{r['live_allocations_per_sample']:.3g}", "", "", "", "", ""),
        ("in-process replay", f"{r['pipeline_bytes_per_second'] / 1e6:.1f} MB/s", "read(2) floor",
         f"{r['read_bytes_per_second'] / 1e6:.1f} MB/s", "", "", ""),
    ]
    return table_rows


HEADER = ("figure", "value", "anchor", "anchor value", "ratio", "target", "met")


def table(r):
    rows_ = rows(r)
    header = HEADER
    widths = [max(len(str(row[i])) for row in rows_ + [header]) for i in range(len(header))]
    line = lambda row: "  ".join(str(cell).ljust(w) for cell, w in zip(row, widths)).rstrip()
    m = r["machine"]
    text = [f"ShakeKit benchmarks, {r['date']}: {m['nproc']} x {m['cpu']}, {m['swift']}",
            f"medians of {r['runs']} rounds after a warm-up round; in each round every figure runs right after "
            "its anchor; ratios are medians of the per-round ratios (lowest-highest round in brackets)", "",
            line(header), line(["-" * w for w in widths])]
    text += [line(row) for row in rows_]
    if r["live_cpu_seconds_per_million_samples"] is None:
        text.append(f"\nlive: not measured: {r['live_note']}")
    return "\n".join(text)


if __name__ == "__main__":
    # Ctrl-C, SIGTERM or SIGHUP end it with 130 and no traceback, as the other scripts do.
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    import script_support  # noqa: E402
    script_support.run(main)
