#!/usr/bin/env python3
"""docs/benchmarks/ksat.md, "Random k-SAT": uniform random k-SAT near each threshold.

`examples/random_3sat` writes the same seeded formulas for every backend named, which must
agree on every answer; the table sets each backend's total against varisat's in the same
run. The 3-SAT formulas are also written out (`RANDOM_3SAT_DUMP`) and compared as DIMACS
files with the external solvers, CaDiCaL first, each a process per formula.

Environment: ROWS (`formulas:variables:ratio:k` items, space-separated), BACKENDS
(default "varisat,cdcl,cdcl/none,lookahead"; the first is the reference), EXTERNAL
(compare entries for the dumped 3-SAT formulas).
"""

import os
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import BIN, EXAMPLES, WORK, build, header, log, read_csv, run, show, table, tool  # noqa: E402

ROWS = os.environ.get("ROWS", "200:150:4.26:3 20:250:4.26:3 40:80:9.93:4 10:50:21.1:5").split()
BACKENDS = os.environ.get("BACKENDS", "varisat,cdcl,cdcl/none,lookahead")
EXTERNAL = os.environ.get("EXTERNAL", "external:cadical -q,cdcl,varisat,minisat")


def label(backend):
    return {"cdcl/none": "cdcl without lookahead (CDCL alone)", "cdcl": "cdcl (the default)",
            "external:cadical -q": "CaDiCaL (process)", "minisat": "MiniSat (process)",
            "external:picosat": "PicoSAT (process)"}.get(backend, backend)


def main():
    build(examples=True)
    example = EXAMPLES / "random_3sat"
    dump = WORK / "ksat-cnf"
    shutil.rmtree(dump, ignore_errors=True)
    commands = []
    for i, item in enumerate(ROWS):
        count, variables, ratio, k = item.split(":")
        commands.append([str(example), count, variables, BACKENDS, ratio, k])
    external = EXTERNAL
    if tool("PICOSAT", "picosat"):
        external += ",external:picosat"
    csv_path = WORK / "ksat.csv"
    compare = [str(BIN), "compare", "-q", "--cnf", str(dump), "--solvers", external, "--timeout", "60",
               "--csv", str(csv_path)]
    shown = [show(c) for c in commands]
    shown[0] = f"RANDOM_3SAT_DUMP={dump.relative_to(WORK.parent.parent)} " + shown[0]
    header(shown + [show(compare)])

    backends = BACKENDS.split(",")
    rows = []
    for i, command in enumerate(commands):
        log(f"ksat: {show(command)}")
        env = {"RANDOM_3SAT_DUMP": str(dump)} if i == 0 else None
        r = run(command, timeout=1800, env=env)
        if r.code != 0:
            sys.exit(f"{show(command)} failed: {r.stderr.strip()[:300]}")
        totals, split = {}, ""
        for line in r.stdout.splitlines():
            parts = line.split(",")
            if len(parts) == 7 and parts[0] in backends:
                totals[parts[0]] = float(parts[5])
                split = f"{parts[3]} / {parts[4]}"
        count, variables, ratio, k = command[1], command[2], command[4], command[5]
        row = [k, f"{count} × {variables}", ratio, split]
        for b in backends:
            t = totals.get(b)
            ref = totals.get(backends[0])
            row.append(f"{t:,.0f}" + (f" ({t / ref:.2f})" if b != backends[0] and ref else "") if t else "–")
        rows.append(row)
    print(f"In process, one thread, wall ms for all the formulas of a row; in brackets the time "
          f"against {label(backends[0])}'s in the same run (below 1 = faster):")
    print()
    table(["k", "formulas × variables", "clauses/variable", "SAT / UNSAT"] + [label(b) for b in backends], rows)

    log("ksat: compare")
    r = run(compare, timeout=3600)
    if r.code != 0:
        sys.exit(f"compare failed: {r.stderr.strip()[:300]}")
    runs = read_csv(csv_path)
    solvers, total, solved = [], {}, {}
    for row in runs:
        s = row["solver"]
        if s not in solvers:
            solvers.append(s)
        if row["outcome"] in ("solved", "no_solution"):
            total[s] = total.get(s, 0.0) + float(row["total_us"]) / 1e3
            solved[s] = solved.get(s, 0) + 1
    count = len(runs) // len(solvers)
    ref = total.get(solvers[0])
    rows = [[label(s), f"{solved.get(s, 0)} of {count}", f"{total.get(s, 0):,.0f}",
             f"{total[s] / ref:.2f}" if ref and s in total else "–"] for s in solvers]
    print(f"The first row's {count} formulas as DIMACS files, one `sudosat compare --cnf` run "
          f"(every model checked, every UNSAT answer matched against the others); ms in total and "
          f"against {label(solvers[0])}. The processes pay a start and a file read a formula, "
          "a large share of a few milliseconds:")
    print()
    table(["solver", "answered", "total ms", f"÷ {label(solvers[0])}"], rows)


if __name__ == "__main__":
    main()
