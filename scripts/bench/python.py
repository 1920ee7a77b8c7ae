#!/usr/bin/env python3
"""docs/benchmarks/python.md, "Python": what the Python module costs over the command line.

`sudosat.solve_many(FILE, jobs=1)` against `sudosat solve --jobs 1 FILE` on the same
file, the whole call against the whole process (reading, solving, checking, the answers
made: Grid objects for Python, lines written for the binary), alternated ROUNDS times in
one run, the median of each; then `sudosat.encode` of the 100×100 grid, whose clauses
stay in the library until `clauses` asks for them, with the Python process's peak memory
after each step.

The module must be installed in the interpreter PYTHON names (default
target/venv/bin/python, else this one), built from the same revision: `pip install
./python` at the top of the clone.

Environment: ROUNDS (default 5), PYTHON, SUDOSAT_DATA (default benches/data).
"""

import json
import os
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import BIN, ROOT, build, data, header, log, relative, run, show, table  # noqa: E402

ROUNDS = int(os.environ.get("ROUNDS", "5"))
# The sets solved both ways: (file, what the rows call it).
SETS = [("9x9/minimal-2k.txt", "2,000 minimal 9×9"), ("9x9/expert-375.txt", "375 expert 9×9")]
LARGE = "large/sudoku-100-1.txt"


def python():
    named = os.environ.get("PYTHON")
    if named:
        return named
    venv = ROOT / "target" / "venv" / "bin" / "python"
    return str(venv) if venv.exists() else sys.executable


# The Python side of one measurement: the call's wall time, in a fresh interpreter.
SOLVE_MANY = """
import json, sys, time
import sudosat
start = time.perf_counter()
answers = sudosat.solve_many(sys.argv[1], jobs=1)
wall = time.perf_counter() - start
assert all(isinstance(a, sudosat.Grid) for a in answers)
print(json.dumps({"wall": wall, "answers": len(answers)}))
"""

# Peak resident memory (KiB) of the interpreter after each step of an encoding.
ENCODE = """
import json, resource, sys, time
import sudosat
peak = lambda: resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
puzzle = sudosat.Grid.read(sys.argv[1])[0]
steps = {"imported": peak()}
start = time.perf_counter()
cnf = sudosat.encode(puzzle, reduce=True)
steps["encode_s"] = time.perf_counter() - start
steps["encoded"] = peak()
steps["clauses"], steps["literals"] = len(cnf), cnf.num_literals
start = time.perf_counter()
clauses = cnf.clauses
steps["clauses_s"] = time.perf_counter() - start
steps["listed"] = peak()
print(json.dumps(steps))
"""


def python_run(program, *args):
    r = run([python(), "-c", program, *map(str, args)], timeout=3600)
    if r.code != 0:
        sys.exit(f"the Python side failed (is the module installed in {python()}?):\n"
                 f"{r.stderr.strip()[-600:]}")
    return json.loads(r.stdout)


def main():
    build()
    check = run([python(), "-c", "import sudosat; print(sudosat.__version__)"], timeout=60)
    if check.code != 0:
        sys.exit(f"{python()}: no sudosat module (pip install ./python)")
    cli = {name: [str(BIN), "solve", "--jobs", "1", str(data(name))] for name, _ in SETS}
    header([f"ROUNDS={ROUNDS}"]
           + [show(c) + " > /dev/null" for c in cli.values()]
           + [f"python -c 'sudosat.solve_many(\"{relative(data(name))}\", jobs=1)'"
              for name, _ in SETS]
           + [f"python -c 'sudosat.encode(sudosat.Grid.read(\"{relative(data(LARGE))}\")[0], "
              "reduce=True).clauses'"])

    rows = []
    for name, label in SETS:
        times = {"cli": [], "python": []}
        for k in range(ROUNDS):
            log(f"python: {name}, round {k + 1} of {ROUNDS}")
            r = run(cli[name], timeout=3600)
            if r.code != 0:
                sys.exit(f"{show(cli[name])} failed: {r.stderr.strip()[:300]}")
            times["cli"].append(r.wall)
            times["python"].append(python_run(SOLVE_MANY, data(name))["wall"])
        c, p = (statistics.median(times[side]) for side in ("cli", "python"))
        rows.append([label, f"{c:.3f} s", f"{p:.3f} s", f"{p / c:.2f}"])
    print(f"`solve_many(FILE, jobs=1)` against `sudosat solve --jobs 1 FILE` (the default "
          f"encoding and backend), median of {ROUNDS} alternated rounds; the ratio is "
          "Python's time over the binary's:")
    print()
    table(["set", "sudosat solve", "solve_many", "ratio"], rows)

    log("python: encode 100×100")
    steps = python_run(ENCODE, data(LARGE))
    mib = lambda kib: f"{kib / 1024:,.0f} MiB"  # noqa: E731
    print(f"`encode` of `{Path(LARGE).name}` (extended+reduced: {steps['clauses']:,} clauses, "
          f"{steps['literals']:,} literals): the clauses stay in the library's store, one "
          "Python object in all, until `clauses` makes the lists. Peak memory of the "
          "Python process after each step:")
    print()
    table(["step", "time", "peak memory"], [
        ["import sudosat, read the puzzle", "", mib(steps["imported"])],
        ["cnf = encode(puzzle, reduce=True)", f"{steps['encode_s']:.2f} s", mib(steps["encoded"])],
        ["cnf.clauses (a list per clause)", f"{steps['clauses_s']:.2f} s", mib(steps["listed"])],
    ])


if __name__ == "__main__":
    main()
