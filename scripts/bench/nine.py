#!/usr/bin/env python3
"""BENCHMARKS.md, "9×9 sets": the generated minimal and expert sets.

Two tables. The first times whole processes (start, parse, solve, write; one thread,
first solution) against tdoku's, the fastest public 9×9 solver, measured in the same run;
a second peer is one more entry of PROCESSES. The second is one `sudosat compare` run:
the time of each solve inside the process (SAT entries: encode, solve, decode, checks),
MiniSat and CaDiCaL as processes on the same CNFs, against cdcl.

Environment: TDOKU_SOLVE (the `tdoku_solve` binary; the column says "not built" without
it), SUDOSAT_DATA (default benches/data).
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import BIN, WORK, build, data, header, log, number, ratio, read_csv, run, show, table, tool  # noqa: E402

SETS = [("minimal-2k", "9x9/minimal-2k.txt"), ("expert-375", "9x9/expert-375.txt")]
COMPARE_SOLVERS = "cdcl,dpll,varisat,splr,dlx,minisat,external:cadical -q"
RUNS = 3  # whole-process runs per entry and set; the fastest is kept


def processes():
    """(label, how it was built, command for a puzzle file or None when absent)."""
    tdoku = tool("TDOKU_SOLVE", "tdoku_solve")
    entries = [
        ("tdoku", "t-dillon/tdoku af42618, `-O3 -march=x86-64-v3`, static; its C driver "
         "`tdoku_solve`", (lambda f: [tdoku, str(f)]) if tdoku else None),
        ("sudosat (cdcl, the default)", "this revision", lambda f: [str(BIN), "solve", str(f),
                                                                     "--jobs", "1", "--threads", "1", "-o", "/dev/null"]),
        ("sudosat `--load assumptions` (batch)", "this revision",
         lambda f: [str(BIN), "solve", str(f), "--jobs", "1", "--threads", "1", "--load", "assumptions",
                                  "-o", "/dev/null"]),
        ("sudosat `--solver dlx`", "this revision",
         lambda f: [str(BIN), "solve", str(f), "--solver", "dlx", "--jobs", "1", "-o", "/dev/null"]),
    ]
    return entries


def count_puzzles(path):
    return sum(1 for line in open(path) if line.strip() and not line.startswith("#"))


def main():
    build()
    entries = processes()
    commands = []
    for _, _, make in entries:
        if make:
            commands.append(show(make(data(SETS[0][1]))).replace("minimal-2k", "{minimal-2k,expert-375}"))
    csv_path = WORK / "nine.csv"
    compare = [str(BIN), "compare", "-q", *[str(data(rel)) for _, rel in SETS], "--solvers",
               COMPARE_SOLVERS, "--timeout", "10", "--csv", str(csv_path)]
    commands.append(show(compare))
    header(commands)

    # Whole processes, best of RUNS, µs a puzzle.
    results = {}
    for label, _, make in entries:
        for set_name, rel in SETS:
            if not make:
                continue
            path = data(rel)
            best = None
            for _ in range(RUNS):
                log(f"nine: {label} on {set_name}")
                r = run(make(path), timeout=600)
                if r.code != 0:
                    sys.exit(f"{show(make(path))} failed: {r.stderr.strip()[:300]}")
                best = r.wall if best is None else min(best, r.wall)
            results[(label, set_name)] = best * 1e6 / count_puzzles(path)
    rows = []
    for label, built, make in entries:
        row = [label]
        for set_name, _ in SETS:
            if not make:
                row += ["not built", "–"]
                continue
            mine, peer = results[(label, set_name)], results.get((entries[0][0], set_name))
            row += [number(mine, 1), ratio(mine, peer) if peer else "tdoku not built"]
        rows.append(row + [built])
    print("Whole process, one thread, first solution, every answer written and (ours) checked; "
          f"µs a puzzle, the fastest of {RUNS} runs; ÷ tdoku is the time against tdoku's "
          "in the same run (below 1 = faster):")
    print()
    table(["solver", "minimal-2k µs", "÷ tdoku", "expert-375 µs", "÷ tdoku", "built"], rows,
          right=[1, 2, 3, 4])

    # One compare run: per-solve times inside the process.
    log("nine: compare")
    r = run(compare, timeout=3600)
    if r.code != 0:
        sys.exit(f"compare failed: {r.stderr.strip()[:300]}")
    runs = read_csv(csv_path)
    csv_path.unlink()
    solvers, by = [], {}
    for row in runs:
        key = row["solver"]
        if key not in solvers:
            solvers.append(key)
        set_name = Path(row["file"]).stem
        by.setdefault((key, set_name), []).append(row)
    reference = solvers[0]

    def mean_us(key, set_name):
        rows = by.get((key, set_name), [])
        answered = [float(x["total_us"]) for x in rows if x["outcome"] == "solved"]
        if len(answered) != len(rows):
            return None
        return sum(answered) / len(answered)

    rows = []
    for key in solvers:
        row = [key.replace("external:cadical -q", "CaDiCaL 1.5.3 (process)").replace(
            "minisat/", "MiniSat (process)/")]
        for set_name, _ in SETS:
            mine, ref = mean_us(key, set_name), mean_us(reference, set_name)
            row += [number(mine, 1) if mine is not None else "unsolved",
                    ratio(mine, ref) if mine is not None else "–"]
        rows.append(row)
    print(f"Per solve inside one `sudosat compare` run (one solve at a time, one thread), mean µs "
          f"a puzzle, every answer checked; ÷ {reference} is against the first row in the same run. "
          "MiniSat and CaDiCaL 1.5.3 (Debian's) are processes on the exported CNF: their times include a process "
          "start and a file round trip.")
    print()
    table(["entry", "minimal-2k µs", f"÷ {reference.split('/')[0]}", "expert-375 µs",
           f"÷ {reference.split('/')[0]}"], rows)


if __name__ == "__main__":
    main()
