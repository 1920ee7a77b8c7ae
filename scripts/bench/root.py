#!/usr/bin/env python3
"""BENCHMARKS.md, "Root reasoning": the Hall-set fixpoint (`--root hall`,
src/solve/hall_fixpoint.rs) on the large grids, and the default path with and without it.

- What the fixpoint leaves: one `examples/root_reasoning` process per grid (cells fixed,
  candidates left, removals by rule, passes, seconds).
- The whole solve: `sudosat solve --threads 1` with `--root none` (search alone) and
  `--root hall`, wall time, CPU time and peak memory; `auto` is `hall` above 144×144 and
  `none` up to it.
- `sudoku-225-1`: the grid the fixpoint prints is checked with `sudosat check`.

Environment: SIZES (default "64 81 100 144 225"), TIMEOUT (seconds a solve, default 60),
SUDOSAT_DATA (default benches/data).
"""

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import BIN, EXAMPLES, WORK, build, data, header, log, number, run, seconds, show, table  # noqa: E402

SIZES = [int(n) for n in os.environ.get("SIZES", "64 81 100 144 225").split()]
TIMEOUT = float(os.environ.get("TIMEOUT", "60"))


def grid(n):
    return data(f"large/sudoku-{n}-1.txt")


def main():
    build(examples=True)
    root = EXAMPLES / "root_reasoning"
    settled = WORK / "root-225-grid.txt"
    fixpoints = {n: [root, grid(n)] + ([WORK / "root-225.cnf", settled] if n == 225 else []) for n in SIZES}
    solves = {(n, mode): [BIN, "solve", grid(n), "--root", mode, "--threads", "1", "--timeout",
                          f"{TIMEOUT:g}", "-o", "/dev/null"]
              for n in SIZES for mode in ("none", "hall")}
    check = [BIN, "check", grid(225), "--solution", settled]
    header([show(c) for c in fixpoints.values()] + [show(c) for c in solves.values()]
           + ([show(check)] if 225 in SIZES else []))

    rows = []
    for n in SIZES:
        log(f"root: fixpoint {n}")
        r = run(fixpoints[n], timeout=3600)
        if r.code != 0:
            sys.exit(f"root_reasoning failed on {n}: {r.stderr.strip()[:300]}")
        fields = dict(part.split("=", 1) for part in r.stdout.split() if "=" in part)
        cells = n * n
        rows.append([f"{n}×{n}", number(int(fields["givens"])), number(int(fields["fixed"])),
                     number(cells - int(fields["fixed"])), number(int(fields["candidates"])),
                     number(int(fields["removed_units"])), number(int(fields["removed_fish"])),
                     number(int(fields["removed_locked"])), fields["passes"],
                     seconds(r.cpu), f"{r.peak_kib / 1024:,.0f} MiB"])
    print("The fixpoint alone (`examples/root_reasoning`, one thread): cells given and fixed, "
          "cells left open, candidates left over all cells, candidates removed by the Hall sets "
          "of rows, columns and boxes (singles included), by fish (each digit's rows against "
          "its columns) and by locked candidates, passes over the changed views, CPU time and "
          "peak memory:")
    print()
    table(["grid", "givens", "fixed", "open", "candidates", "units", "fish", "locked", "passes",
           "CPU", "peak memory"], rows)

    if 225 in SIZES:
        r = run(check, timeout=600)
        verdict = "valid" if r.code == 0 and "1 valid" in r.stdout else f"not valid ({r.stdout.strip()[-200:]})"
        print(f"`sudoku-225-1`: the grid the fixpoint leaves, checked against the rules and the "
              f"givens by `sudosat check`: {verdict}. Every removal holds in every solution, so "
              "one candidate a cell means this is the puzzle's only solution.")
        print()

    rows = []
    for n in SIZES:
        row = [f"{n}×{n}"]
        for mode in ("none", "hall"):
            log(f"root: solve {n} --root {mode}")
            r = run(solves[(n, mode)], timeout=TIMEOUT + 120)
            answer = seconds(r.wall) if r.code == 0 else f"unsolved at {TIMEOUT:g} s"
            row += [answer, f"{r.cpu:.2f} s", f"{r.peak_kib / 1024:,.0f} MiB"]
        rows.append(row)
    print("The whole solve (`sudosat solve --threads 1`, cdcl, extended+reduced): wall time, CPU "
          "time and peak memory with the search alone (`--root none`) and with the fixpoint first "
          "(`--root hall`):")
    print()
    table(["grid", "none: wall", "CPU", "memory", "hall: wall", "CPU", "memory"], rows)


if __name__ == "__main__":
    main()
