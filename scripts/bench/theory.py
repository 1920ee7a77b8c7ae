#!/usr/bin/env python3
"""docs/benchmarks/hard.md, "The grid as a theory": cdcl with `--propagate none` (clauses
alone), `grid` (the grid theory beside the clauses), `grid-only` (the theory instead of the
grid's clauses) and either with Hall sets (`grid-hall`, `grid-only-hall`), against CaDiCaL
on the same reduced CNFs.

- 9×9: instructions counted by callgrind for one `sudosat solve` process over the first
  200 minimal and the first 100 expert puzzles (deterministic, unlike times on a
  shared machine); skipped when valgrind is absent.
- Hard 25×25 and 64×64: `scripts/bench-hard.sh` (one process per puzzle and mode, CPU
  seconds, each puzzle with isomorphic copies, since one CDCL run is one draw).

Environment: SETS (bench-hard.sh sets, default "gecode 64-1"), CPU (CPU seconds a solve for
64-1, default 90), SUDOSAT_DATA (default benches/data).
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import BIN, ROOT, WORK, build, data, header, log, run, table  # noqa: E402

MODES = ["none", "grid", "grid-only", "grid-hall", "grid-only-hall"]
SETS = os.environ.get("SETS", "gecode 64-1").split()


def instructions(puzzles, mode):
    """Instructions of one solve process over `puzzles`, as callgrind counts them."""
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", str(BIN), "solve",
               str(puzzles), "--propagate", mode, "--jobs", "1", "--threads", "1", "-o", "/dev/null"]
    r = run(command, timeout=1800)
    for line in r.stderr.splitlines():
        if "Collected :" in line:
            return int(line.split(":")[-1])
    sys.exit(f"callgrind gave no count: {r.stderr[-300:]}")


def nine():
    if not shutil.which("valgrind"):
        print("9×9: valgrind not installed, not measured.")
        print()
        return
    sets = []
    for name, source, count in [("minimal (first 200)", "9x9/minimal-2k.txt", 200),
                                ("expert (first 100)", "9x9/expert-375.txt", 100)]:
        path = WORK / f"theory-{count}.txt"
        lines = [line for line in data(source).read_text().splitlines() if line and not line.startswith("#")]
        path.write_text("\n".join(lines[:count]) + "\n")
        sets.append((name, path, count))
    rows = []
    for name, path, count in sets:
        log(f"theory: callgrind {name}")
        counts = {mode: instructions(path, mode) for mode in MODES}
        rows.append([name] + [f"{counts[m] / count / 1000:,.0f} k" for m in MODES]
                    + [f"{counts[m] / counts['none']:.2f}" for m in MODES[1:]])
    print("9×9, one `sudosat solve` process a set, instructions a puzzle (callgrind, whole "
          "process: parsing, encoding, solving, checking, printing):")
    print()
    table(["set"] + [f"`{m}`" for m in MODES] + [f"`{m}` ÷ `none`" for m in MODES[1:]], rows)


def hard():
    configs = ";".join([f"--propagate {m} --threads 1" for m in MODES] + ["cadical"])
    env = dict(os.environ, CONFIGS=configs, SUDOSAT_DATA=str(data(".")))
    env.setdefault("CPU", "90")
    log(f"theory: bench-hard.sh {' '.join(SETS)}")
    r = subprocess.run(["scripts/bench-hard.sh", *SETS], cwd=ROOT, env=env, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"bench-hard.sh failed: {r.stderr[-300:]}")
    print("Hard grids, one process a puzzle and mode, CPU seconds (a time-out counts its limit); "
          "per puzzle CPU s/conflicts. `gecode` is the six Gecode 25×25 puzzles with three "
          "isomorphs each, `64-1` is `sudoku-64-1` with three isomorphs:")
    print()
    print("\n".join(line for line in r.stdout.splitlines() if line.startswith("|")))
    print()


def main():
    build()
    header([f"scripts/bench/theory.py   # sudosat solve --propagate {{{','.join(MODES)}}} --threads 1; "
            f"scripts/bench-hard.sh {' '.join(SETS)}"])
    nine()
    hard()


if __name__ == "__main__":
    main()
