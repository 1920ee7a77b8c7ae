#!/usr/bin/env python3
"""docs/benchmarks/solvers.md, "Embedded and external solvers": CaDiCaL 1.9.5 and Kissat
4.0.4 compiled into sudosat (`--backend cadical`, `--backend kissat`) beside the same
solvers run as processes, and beside cdcl, on 9×9, hard 25×25 and large grids.

The processes are the same library code: `sudosat sat --backend NAME --threads 1` as an
external solver, which compare hands the puzzle's CNF as a file and whose `s`/`v` answer
it parses (what `compare --isolate` runs). An embedded entry is timed in process (encoding,
loading, solving, decoding, checking); a process entry around the process (encoding, the
CNF file written, the process with its start-up and parsing, its answer read back).
KISSAT=path adds that Kissat binary as a process too (scripts/build-peers.sh builds
Kissat 4.0.4 from the same crate's sources). Each part is one `sudosat compare` run, cdcl
first as the reference.

Needs the `kissat` feature, whose build needs libclang (Debian: libclang-dev).

Environment: LIMIT (9×9 puzzles of expert-375, default 375), TIMEOUT (seconds a solve,
default 60), SIZES (large grids, default "16 25 64 81 100 144"), PARTS (default
"nine hard large"), KISSAT (a Kissat binary), SUDOSAT_DATA (default benches/data).
"""

import os
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import BIN, ROOT, WORK, data, header, log, read_csv, run, seconds, show, table, tool  # noqa: E402

LIMIT = os.environ.get("LIMIT", "375")
TIMEOUT = os.environ.get("TIMEOUT", "60")
SIZES = [int(n) for n in os.environ.get("SIZES", "16 25 64 81 100 144").split()]
PARTS = os.environ.get("PARTS", "nine hard large").split()
KISSAT = tool("KISSAT", None)


def process(backend):
    return f"external:{BIN} sat --backend {backend} --threads 1"


def entries():
    solvers = ["cdcl", "cadical", process("cadical"), "kissat", process("kissat")]
    if KISSAT:
        solvers.append(f"external:{KISSAT} -q")
    return ",".join(solvers)


def label(solver):
    """Entry names without the machine's paths."""
    solver = solver.replace("/extended+reduced", "")
    for backend in ("cadical", "kissat"):
        solver = solver.replace(process(backend)[len("external:"):], f"sudosat sat --backend {backend}")
    if KISSAT:
        solver = solver.replace(f"external:{KISSAT} -q", "kissat -q (its application)")
    if solver.startswith("external:"):
        return f"{solver[len('external:'):]} (process)"
    return f"{solver} (in process)"


def build():
    """The release build with Kissat (one job: the machine is shared); nothing with
    $BENCH_BIN, which must then have been built with `--features kissat`."""
    if "BENCH_BIN" in os.environ:
        return
    subprocess.run(["cargo", "build", "--release", "-j", "1", "--quiet", "--features", "kissat"],
                   cwd=ROOT, check=True)


def compare(name, inputs, extra=()):
    csv_path = WORK / f"embedded-{name}.csv"
    command = [str(BIN), "compare", "-q", *map(str, inputs), "--solvers", entries(), "--timeout",
               TIMEOUT, *extra, "--csv", str(csv_path)]
    return command, csv_path


def measure(command, csv_path):
    log(f"embedded: {show(command)}")
    r = run(command, timeout=4 * 3600)
    if r.code != 0:
        sys.exit(f"compare failed: {r.stderr.strip()[:300]}")
    return read_csv(csv_path)


def per_entry(rows):
    """Each entry's answered times in seconds and its unanswered count, in entry order."""
    solvers, times, missed = [], {}, {}
    for row in rows:
        s = row["solver"]
        if s not in solvers:
            solvers.append(s)
            times[s], missed[s] = [], 0
        if row["outcome"] in ("solved", "no_solution"):
            times[s].append(float(row["total_us"]) / 1e6)
        else:
            missed[s] += 1
    return solvers, times, missed


def summary_table(rows):
    solvers, times, missed = per_entry(rows)
    reference = sum(times[solvers[0]])
    out = []
    for s in solvers:
        t = times[s]
        total = sum(t)
        out.append([label(s), f"{len(t)}" + (f" ({missed[s]} not)" if missed[s] else ""),
                    seconds(statistics.median(t)) if t else "–",
                    f"{seconds(min(t))} – {seconds(max(t))}" if t else "–",
                    seconds(total), f"{total / reference:.2f}" if reference and not missed[s] else "–"])
    table(["entry", "answered", "median", "range", "total", "÷ cdcl"], out)


def grid_table(rows):
    solvers, sizes, cell = [], [], {}
    for row in rows:
        if row["solver"] not in solvers:
            solvers.append(row["solver"])
        n = int(row["size"])
        if n not in sizes:
            sizes.append(n)
        ok = row["outcome"] == "solved"
        cell[(n, row["solver"])] = seconds(float(row["total_us"]) / 1e6) if ok else row["outcome"]
    table(["grid"] + [label(s) for s in solvers],
          [[f"{n}×{n}"] + [cell.get((n, s), "not run") for s in solvers] for n in sizes])


def main():
    build()
    runs = {
        "nine": compare("9x9", [data("9x9/expert-375.txt")], ["--limit", LIMIT]),
        "hard": compare("hard", [data("hard/gecode-25x25-6.txt")]),
        "large": compare("large", [data(f"large/sudoku-{n}-1.txt") for n in SIZES]),
    }
    header([show(runs[part][0]) for part in PARTS])
    print("Each row an entry of one `sudosat compare` run (one solve at a time, one thread, "
          "extended+reduced, every model checked), cdcl first; `÷ cdcl` is the entry's total "
          "against cdcl's in the same run. *In process*: encoding, loading, solving, decoding "
          "and checking inside sudosat; *process*: the same solver behind "
          "`sudosat sat --backend NAME`, timed around the process (the CNF file written, the "
          "process started, its answer parsed).")
    print()
    if "nine" in PARTS:
        print(f"**9×9**, the first {LIMIT} of `expert-375.txt`, seconds a puzzle:")
        print()
        summary_table(measure(*runs["nine"]))
    if "hard" in PARTS:
        print(f"**Hard 25×25**, the six Gecode puzzles, {TIMEOUT} s limit, seconds a puzzle:")
        print()
        summary_table(measure(*runs["hard"]))
    if "large" in PARTS:
        print(f"**Large grids**, one each, {TIMEOUT} s limit, seconds a grid:")
        print()
        grid_table(measure(*runs["large"]))


if __name__ == "__main__":
    main()
