#!/usr/bin/env python3
"""docs/benchmarks/large.md, "Large grids": the single grids from 16×16 to 225×225.

Two parts. The default path: one `sudosat solve` process per grid (every core), wall
time and peak memory. Then one `sudosat compare` run over the grids up to 144×144 with
every entry on the extended+reduced encoding, CaDiCaL first as the reference, and a
shorter run on 225×225 with the entries that can be stopped cheaply and `--root none`:
the searches alone, which no solver here settles (the default path settles it by the
Hall-set fixpoint first, see scripts/bench/root.py).

Environment: SIZES (default "16 25 64 81 100 144 225"), TIMEOUT (seconds a solve, default
30), TIMEOUT_225 (default 20; the default path's solve gets TIMEOUT), SOLVERS (compare entries, the first the reference),
SUDOSAT_DATA (default benches/data).
"""

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import (BIN, WORK, build, data, header, log, number, peer_entries, peer_label, read_csv, run,  # noqa: E402
                    seconds, show, table)

SIZES = [int(n) for n in os.environ.get("SIZES", "16 25 64 81 100 144 225").split()]
TIMEOUT = float(os.environ.get("TIMEOUT", "30"))
TIMEOUT_225 = float(os.environ.get("TIMEOUT_225", "20"))
SOLVERS = os.environ.get("SOLVERS", ",".join(["external:cadical -q", *(e for e, _ in peer_entries()),
                                               "cdcl", "dpll", "minisat"]))
SOLVERS_225 = os.environ.get("SOLVERS_225", "external:cadical -q,cdcl")


def label(solver):
    return (peer_label(solver).replace("minisat", "MiniSat")
            .replace("/extended+reduced", ""))


def grid(n):
    return data(f"large/sudoku-{n}-1.txt")


def compare(sizes, solvers, timeout, name, extra=()):
    csv_path = WORK / f"large-{name}.csv"
    command = [str(BIN), "compare", "-q", *[str(grid(n)) for n in sizes], "--solvers", solvers,
               "--timeout", f"{timeout:g}", *extra, "--csv", str(csv_path)]
    return command, csv_path


def main():
    build()
    sizes = [n for n in SIZES if n != 225]
    solve_limit = {n: TIMEOUT for n in SIZES}
    solves = {n: [str(BIN), "solve", str(grid(n)), "--timeout", f"{solve_limit[n]:g}", "-o", "/dev/null"]
              for n in SIZES}
    runs = [compare(sizes, SOLVERS, TIMEOUT, "all")]
    if 225 in SIZES:
        runs.append(compare([225], SOLVERS_225, TIMEOUT_225, "225", ["--root", "none"]))
    header([show(solves[n]) for n in SIZES] + [show(c) for c, _ in runs])

    rows = []
    for n in SIZES:
        log(f"large: solve {n}")
        r = run(solves[n], timeout=solve_limit[n] + 60)
        answered = r.code == 0
        rows.append([f"{n}×{n}", seconds(r.wall) if answered else f"unsolved at {solve_limit[n]:g} s",
                     f"{r.cpu:.2f} s", f"{r.peak_kib / 1024:,.0f} MiB"])
    print("The default path (`sudosat solve`, cdcl, every core): wall time of the process, its "
          "CPU time and peak resident memory:")
    print()
    table(["grid", "wall", "CPU", "peak memory"], rows)

    results, solvers, clauses = {}, [], {}
    for command, csv_path in runs:
        log(f"large: {show(command)}")
        r = run(command, timeout=7200)
        if r.code != 0:
            sys.exit(f"compare failed: {r.stderr.strip()[:300]}")
        for row in read_csv(csv_path):
            if row["solver"] not in solvers:
                solvers.append(row["solver"])
            n = int(row["size"])
            if row["clauses"]:
                clauses[n] = int(row["clauses"])
            ok = row["outcome"] == "solved"
            results[(n, row["solver"])] = (float(row["total_us"]) / 1e6 if ok else None, row["outcome"])
    reference = solvers[0]
    rows = []
    for n in SIZES:
        row = [f"{n}×{n}", number(clauses.get(n, 0))]
        ref = results.get((n, reference), (None, ""))[0]
        for s in solvers:
            if (n, s) not in results:
                row.append("not run")
                continue
            t, outcome = results[(n, s)]
            if t is None:
                limit = TIMEOUT_225 if n == 225 else TIMEOUT
                row.append(f"{outcome} ({limit:g} s)" if outcome == "timeout" else outcome)
            elif s == reference or ref is None:
                row.append(seconds(t))
            else:
                row.append(f"{seconds(t)} ({t / ref:.2f})")
        rows.append(row)
    print(f"One `sudosat compare` run (one solve at a time, one thread, extended+reduced, every "
          f"model checked): seconds a grid, and in brackets the time against {label(reference)}'s "
          "on the same grid in the same run (below 1 = faster). MiniSat and CaDiCaL are processes "
          "on the exported CNF, so their times include writing it.")
    print()
    table(["grid", "clauses"] + [label(s) for s in solvers], rows)


if __name__ == "__main__":
    main()
