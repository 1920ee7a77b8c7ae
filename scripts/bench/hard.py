#!/usr/bin/env python3
"""docs/benchmarks/hard.md, "Hard 25×25": the six Gecode 25×25 puzzles, which need real search.

Each puzzle is encoded once (`sudosat encode --reduce`, extended+reduced) and every entry
solves the same CNF in one `sudosat compare --cnf` run, CaDiCaL first, so that each ratio
is against CaDiCaL measured in the same run. `sudosat sat` is the default path (a process,
every core); `cdcl` is the same solver in process on one thread.

Environment: SOLVERS (the compare entries, comma-separated; the first is the reference),
TIMEOUT (seconds a solve, default 60), SUDOSAT_DATA (default benches/data).
"""

import os
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import (BIN, WORK, build, data, header, log, peer_entries, peer_label, read_csv, run, show,  # noqa: E402
                    table)

TIMEOUT = os.environ.get("TIMEOUT", "60")
SOLVERS = os.environ.get("SOLVERS", ",".join(["external:cadical -q", *(e for e, _ in peer_entries()),
                                               f"external:{BIN} sat", "cdcl", "minisat"]))


def label(solver):
    """Column names without the machine's paths."""
    return (peer_label(solver.replace(f"external:{BIN} sat", "sudosat sat (default: every core)"))
            .replace("minisat", "MiniSat (process)")
            .replace("cdcl", "cdcl (in process, one thread)"))


def main():
    build()
    cnf_dir = WORK / "hard-cnf"
    shutil.rmtree(cnf_dir, ignore_errors=True)
    encode = [str(BIN), "encode", "--reduce", str(data("hard/gecode-25x25-6.txt")), "--out-dir", str(cnf_dir)]
    csv_path = WORK / "hard.csv"
    compare = [str(BIN), "compare", "-q", "--cnf", str(cnf_dir), "--solvers", SOLVERS, "--timeout", TIMEOUT,
               "--csv", str(csv_path)]
    header([show(encode), show(compare).replace(str(BIN), "sudosat")])
    log("hard: encode")
    if run(encode).code != 0:
        sys.exit("encode failed")
    log("hard: compare")
    r = run(compare, timeout=3600)
    if r.code != 0:
        sys.exit(f"compare failed: {r.stderr.strip()[:300]}")
    runs = read_csv(csv_path)
    solvers, formulas, cell = [], [], {}
    for row in runs:
        if row["solver"] not in solvers:
            solvers.append(row["solver"])
        name = Path(row["file"]).stem
        if name not in formulas:
            formulas.append(name)
        cell[(name, row["solver"])] = row
    sizes = {name: (int(cell[(name, solvers[0])]["vars"] or 0), int(cell[(name, solvers[0])]["clauses"] or 0))
             for name in formulas}

    def secs(name, solver):
        row = cell[(name, solver)]
        return float(row["total_us"]) / 1e6 if row["outcome"] in ("solved", "no_solution") else None

    rows, totals = [], {s: 0.0 for s in solvers}
    unsolved = {s: 0 for s in solvers}
    for i, name in enumerate(formulas, 1):
        row = [str(i), f"{sizes[name][0]:,}", f"{sizes[name][1]:,}"]
        for s in solvers:
            t = secs(name, s)
            if t is None:
                unsolved[s] += 1
                totals[s] += float(TIMEOUT)
                row.append(cell[(name, s)]["outcome"])
            else:
                totals[s] += t
                row.append(f"{t:.2f}")
        rows.append(row)
    rows.append(["total", "", ""] + [f"**{totals[s]:.2f}**" + (f" ({unsolved[s]} unsolved, counted {TIMEOUT} s)"
                                                                if unsolved[s] else "") for s in solvers])
    rows.append([f"÷ {label(solvers[0])}", "", ""] + [f"{totals[s] / totals[solvers[0]]:.2f}" for s in solvers])
    print(f"Seconds a puzzle (wall, every model checked against the formula), {TIMEOUT} s limit; "
          f"the last row is each entry's total against {label(solvers[0])}'s in the same run "
          "(below 1 = faster). One run is one draw of each search: single puzzles move by 2× "
          "and more between runs, the total less.")
    print()
    table(["puzzle", "vars", "clauses"] + [label(s) for s in solvers], rows)


if __name__ == "__main__":
    main()
