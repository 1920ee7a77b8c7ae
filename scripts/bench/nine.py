#!/usr/bin/env python3
"""docs/benchmarks/nine.md, "9×9 sets": batches of puzzles, whole processes, against tdoku.

Three tables. The first times whole processes (start, parse, solve, check, write; one
thread, first solution, CPU time, the fastest of RUNS) against tdoku's, the fastest public
9×9 solver, measured in the same run and interleaved, on the shipped sets and on fresh
sets that `sudosat generate` makes from seeds drawn when the script runs (printed above
the tables): minimal puzzles cut to 21–24 clues and expert ones. Beside them `--jobs 2`
against one job (wall time, same puzzles, medians of interleaved runs, beside what the
machine gives two processes side by side, each on half the puzzles), and the 16×16 and
25×25 batches (fresh minimal puzzles). The second states the targets of the batch path against those figures.
The third is one `sudosat compare` run: the time of each solve inside the process (SAT
entries: load, solve, decode, checks), MiniSat and CaDiCaL as processes, against cdcl.
The fourth puts the targets beside other 9×9 solvers timed by tdoku's own driver
(`tdoku_run_benchmark`, which tdoku's build makes with them: solver calls only, warm, no
process, parse or output), among them the two exact-cover solvers of its set.

Environment: TDOKU_SOLVE (the `tdoku_solve` binary; the column says "not built" without
it), TDOKU_BENCH (its `tdoku_run_benchmark`; the fourth table is left out without it),
NINE_BASE_BIN (an earlier build of sudosat, e.g. main's, timed in a row of its own
with its default solver, or with NINE_BASE_SOLVER's, e.g. `dlx`), NINE_SEED (the seed of
the fresh sets, instead of a drawn one), NINE_FRESH=0 (the shipped sets only), NINE_RUNS
(runs per entry and set, default 3), SUDOSAT_DATA (default benches/data).
"""

import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import BIN, WORK, build, data, header, log, number, ratio, read_csv, run, show, table, tool  # noqa: E402

SHIPPED = [("minimal-2k", "9x9/minimal-2k.txt", "minimal"), ("expert-375", "9x9/expert-375.txt", "expert")]
# Fresh sets: (name, `sudosat generate` arguments, puzzles asked for, kind). Puzzles the
# generator cannot cut to the clue count in its fills are left out (21 clues: about one in
# three), so a set may hold fewer.
FRESH = [
    ("fresh 24 clues", ["--clues", "24"], 1000, "minimal"),
    ("fresh 23 clues", ["--clues", "23"], 600, "minimal"),
    ("fresh 22 clues", ["--clues", "22"], 300, "minimal"),
    ("fresh 21 clues", ["--clues", "21"], 90, "minimal"),
    ("fresh expert", ["--grade", "expert"], 1000, "expert"),
]
LARGER = [("fresh 16×16", ["--size", "4"], 60), ("fresh 25×25", ["--size", "5"], 12)]
RUNS = int(os.environ.get("NINE_RUNS", "3"))  # whole-process runs per entry and set; the fastest is kept
# The targets of the batch path (docs/benchmarks/nine.md, "9×9 sets"): the SAT path against
# tdoku by kind of set, Dancing Links against tdoku, and two jobs against one.
SAT_TARGET = {"minimal": 4.0, "expert": 3.0}
DLX_TARGET = 2.0
JOBS_TARGET = 1.8
# Copies of minimal-2k in the batch `--jobs 2` is timed on: 50,000 puzzles, about 3 s of one
# job. At 5 copies (0.3 s) the ratio moved between 1.52x and 2.17x over six runs on a
# shared 2-core machine.
JOBS_COPIES = 25
COMPARE_SOLVERS = "cdcl,dpll,varisat,splr,dlx,minisat,external:cadical -q"
# The solvers tdoku's driver is built with (../shared/tools/tdoku/build.sh), fastest first,
# and how each works as tdoku's driver describes it (src/all_solvers.h: representation,
# then propagation; every one branches on a cell of fewest candidates).
PEERS = [
    ("tdoku", "box-band bit boards; singles, hidden singles, locked candidates, more"),
    ("jsolve", "cell bit boards; singles, hidden singles, locked candidates"),
    ("fsss", "cell bit boards; singles, hidden singles, locked candidates"),
    ("bb_sudoku", "cell bit boards; singles, hidden singles, locked candidates"),
    ("zerodoku", "units; singles, hidden singles"),
    ("kudoku", "exact cover on arrays, no links; singles, hidden singles"),
    ("fast_solv_9r2", "exact cover, Dancing Links; singles, hidden singles"),
]
PEER_SECONDS = 3  # tdoku's driver: target test time per solver and set (after 1 s warm-up)


def entries():
    """(label, how it was built, command for a puzzle file or None when absent)."""
    tdoku = tool("TDOKU_SOLVE", "tdoku_solve")
    one = ["--jobs", "1", "--threads", "1", "-o", "/dev/null"]
    listed = [
        ("tdoku", "t-dillon/tdoku af42618, `-O3 -march=x86-64-v3`, static; its C driver "
         "`tdoku_solve`", (lambda f: [tdoku, str(f)]) if tdoku else None),
        ("sudosat (cdcl, the default)", "this revision", lambda f: [str(BIN), "solve", str(f), *one]),
        ("sudosat `--load reencode`", "this revision",
         lambda f: [str(BIN), "solve", str(f), "--load", "reencode", *one]),
        ("sudosat `--solver dlx`", "this revision",
         lambda f: [str(BIN), "solve", str(f), "--solver", "dlx", *one]),
        ("sudosat `--root none` (every puzzle to cdcl)", "this revision",
         lambda f: [str(BIN), "solve", str(f), "--root", "none", *one]),
    ]
    base = os.environ.get("NINE_BASE_BIN")
    if base:
        solver = os.environ.get("NINE_BASE_SOLVER")
        label = f"sudosat `--solver {solver}` before" if solver else "sudosat (cdcl) before"
        chosen = ["--solver", solver] if solver else []
        listed.append((label, "an earlier build (NINE_BASE_BIN)",
                       lambda f: [base, "solve", str(f), *chosen, *one]))
    return listed


def settled_share(path):
    """How many of the puzzles in `path` the default answers at the root: "k of n (p %)",
    then how many of them a probe's solution answered."""
    command = [str(BIN), "solve", str(path), "--jobs", "1", "--threads", "1", "--stats", "-o", "/dev/null"]
    r = run(command, timeout=1200, measure_peak=False)
    if r.code != 0:
        sys.exit(f"{show(command)} failed: {r.stderr.strip()[:300]}")
    endings = [line for line in r.stderr.splitlines() if line.startswith("stats: puzzle")]
    probed = sum(1 for line in endings if " root=probed " in line)
    answered = probed + sum(1 for line in endings if " root=settled " in line)
    n = count_puzzles(path)
    return f"{answered:,} of {n:,} ({100 * answered / n:.0f} %; {probed:,} by a probe's solution)"


def count_puzzles(path):
    return sum(1 for line in open(path) if line.strip() and not line.startswith("#"))


def generate(name, args, count, seed):
    """A fresh set in target/bench: `count` puzzles asked for, those made kept (the
    generator writes those it made on standard output, and names the others)."""
    path = WORK / f"nine-{name.replace(' ', '-').replace('×', 'x')}.txt"
    command = [str(BIN), "generate", *args, "--count", str(count), "--seed", str(seed), "-q"]
    log(f"nine: {show(command)}")
    r = run(command, timeout=3600)
    path.write_text(r.stdout)
    if count_puzzles(path) == 0:
        sys.exit(f"{show(command)} made no puzzle: {r.stderr.strip()[:300]}")
    return path, command


def side_by_side(commands):
    """Wall seconds of `commands` started together, until the last one ends."""
    start = time.monotonic()
    processes = [subprocess.Popen(c, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE) for c in commands]
    for command, process in zip(commands, processes):
        _, err = process.communicate(timeout=1200)
        if process.returncode != 0:
            sys.exit(f"{show(command)} failed: {err.decode().strip()[:300]}")
    return time.monotonic() - start


def fastest(command, runs=RUNS, wall=False):
    best = None
    for _ in range(runs):
        r = run(command, timeout=1200, measure_peak=False)
        if r.code != 0:
            sys.exit(f"{show(command)} failed: {r.stderr.strip()[:300]}")
        t = r.wall if wall else r.cpu
        best = t if best is None else min(best, t)
    return best


def main():
    build()
    seed = int(os.environ.get("NINE_SEED", random.SystemRandom().randrange(1, 2**31)))
    fresh = os.environ.get("NINE_FRESH", "1") != "0"
    sets = [(name, data(rel), kind) for name, rel, kind in SHIPPED]
    commands = []
    if fresh:
        for k, (name, args, count, kind) in enumerate(FRESH):
            path, command = generate(name, args, count, seed + 1000 * k)
            sets.append((name, path, kind))
            commands.append(show(command))
    larger = []
    if fresh:
        for k, (name, args, count) in enumerate(LARGER):
            path, command = generate(name, args, count, seed + 1000 * (k + len(FRESH)))
            larger.append((name, path))
            commands.append(show(command))
    listed = entries()
    jobs_file = WORK / "nine-jobs.txt"
    minimal = data("9x9/minimal-2k.txt").read_text()
    jobs_file.write_text(minimal * JOBS_COPIES)
    halves = [WORK / "nine-jobs-first-half.txt", WORK / "nine-jobs-second-half.txt"]
    for half, copies in zip(halves, (JOBS_COPIES // 2, JOBS_COPIES - JOBS_COPIES // 2)):
        half.write_text(minimal * copies)
    jobs = lambda j: [str(BIN), "solve", str(jobs_file), "--jobs", str(j), "--threads", "1", "-o", "/dev/null"]  # noqa: E731
    for _, _, make in listed:
        if make:
            commands.append(show(make(data(SHIPPED[0][1]))).replace("minimal-2k", "SET"))
    commands += [show(jobs(1)), show(jobs(2)),
                 " & ".join(show(jobs(1)).replace("nine-jobs", f"nine-jobs-{h}-half") for h in ("first", "second"))]
    csv_path = WORK / "nine.csv"
    compare = [str(BIN), "compare", "-q", *[str(data(rel)) for _, rel, _ in SHIPPED], "--solvers",
               COMPARE_SOLVERS, "--timeout", "10", "--csv", str(csv_path)]
    commands.append(show(compare))
    header(commands)
    if fresh:
        print(f"Fresh sets drawn with seed {seed} (`NINE_SEED={seed}` makes them again): "
              + ", ".join(f"{name} {count_puzzles(path):,} puzzles" for name, path, _ in sets[2:])
              + "; " + ", ".join(f"{name} {count_puzzles(path)}" for name, path in larger) + ".")
        print()

    # Whole processes, CPU seconds, µs a puzzle; the entries interleaved run by run.
    results = {}
    for set_name, path, kind in sets + [(name, path, "larger") for name, path in larger]:
        n = count_puzzles(path)
        for _ in range(RUNS):
            for label, _, make in listed:
                # tdoku solves 9×9 only; Dancing Links is not timed on the larger grids.
                if not make or (kind == "larger" and label in (listed[0][0], listed[3][0])):
                    continue
                log(f"nine: {label} on {set_name}")
                t = fastest(make(path), runs=1) * 1e6 / n
                key = (label, set_name)
                results[key] = t if key not in results else min(results[key], t)
    rows = []
    for label, built, make in listed:
        row = [label]
        for set_name, _, _ in sets:
            if not make:
                row.append("not built")
                continue
            mine, peer = results[(label, set_name)], results.get((listed[0][0], set_name))
            row.append(f"{number(mine, 1)} ({ratio(mine, peer)})" if peer and label != "tdoku"
                       else number(mine, 1))
        rows.append(row + [built])
    print("Whole process, one thread, first solution, every answer written and (ours) checked: "
          f"CPU µs a puzzle, the fastest of {RUNS} runs, and in brackets the time against "
          "tdoku's in the same run (below 1 = faster):")
    print()
    table(["solver"] + [name for name, _, _ in sets] + ["built"], rows)
    print()
    print("Puzzles the default answers at the root, by singles and failed-literal probing on "
          "bit boards, without cdcl (`--stats`' `root=settled` and `root=probed`; the others go "
          "to cdcl encoded alone with what is left): "
          + ", ".join(f"{name} {settled_share(path)}" for name, path, _ in sets) + ".")
    print()

    # Two jobs against one.
    # Interleaved, and medians: the machine's speed drifts by a fifth over minutes, which
    # the fastest of runs taken one command after the other turns into the ratio.
    log("nine: --jobs 1 and 2, and two processes side by side")
    walls = {"one": [], "two": [], "side by side": []}
    for _ in range(RUNS):
        walls["one"].append(fastest(jobs(1), runs=1, wall=True))
        walls["two"].append(fastest(jobs(2), runs=1, wall=True))
        walls["side by side"].append(side_by_side([jobs(1)[:2] + [str(h)] + jobs(1)[3:] for h in halves]))
    one, two, pair = (statistics.median(walls[k]) for k in ("one", "two", "side by side"))
    n = count_puzzles(jobs_file)

    # Larger grids: this revision's default against reencoding and the earlier build.
    if larger:
        rows = []
        for label, built, make in listed[1:]:
            if "dlx" in label:
                continue
            row = [label]
            for name, path in larger:
                row.append(number(results[(label, name)] / 1000, 2))
            rows.append(row)
        print("The 16×16 and 25×25 batches (fresh minimal puzzles), CPU ms a puzzle, the "
              f"fastest of {RUNS} runs:")
        print()
        table(["solver"] + [name for name, _ in larger], rows)

    # The targets.
    sat, dlx, tdoku = listed[1][0], listed[3][0], listed[0][0]
    rows = []
    for set_name, _, kind in sets:
        peer = results.get((tdoku, set_name))
        if not peer:
            continue
        for label, target in [(sat, SAT_TARGET[kind]), (dlx, DLX_TARGET)]:
            got = results[(label, set_name)] / peer
            rows.append([set_name, label, f"≤ {target:g}×", f"{got:.2f}×",
                         "met" if got <= target else "**missed**"])
    speedup = one / two
    rows.append([f"minimal-2k × {JOBS_COPIES} ({n:,} puzzles), wall, medians of {RUNS}", "sudosat `--jobs 2`",
                 f"≥ {JOBS_TARGET:g}× one job", f"{speedup:.2f}× ({number(one, 2)} s → {number(two, 2)} s)",
                 "met" if speedup >= JOBS_TARGET else "**missed**"])
    rows.append(["the same puzzles in two halves", "two processes side by side (the machine's own)",
                 "–", f"{one / pair:.2f}× ({number(pair, 2)} s)", ""])
    print("The batch path's targets against these figures:")
    print()
    table(["set", "entry", "target", "measured", ""], rows, right=[2, 3])

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
        by.setdefault((key, Path(row["file"]).stem), []).append(row)
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
        for set_name, _, _ in SHIPPED:
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
    peers(sets)


def peers(sets):
    """The fourth table: other 9×9 solvers in tdoku's driver, µs a puzzle and × tdoku."""
    driver = tool("TDOKU_BENCH", "tdoku_run_benchmark")
    if not driver:
        return
    names = ",".join(name for name, _ in PEERS)
    timed = {}
    for set_name, path, _ in sets:
        # The driver reads `.` blanks only.
        dotted = WORK / f"nine-peers-{Path(path).stem}.txt"
        dotted.write_text(Path(path).read_text().replace("0", "."))
        command = [driver, "-c", "1", "-r", "0", "-w", "1", "-t", str(PEER_SECONDS), "-n",
                   str(count_puzzles(path)), "-s", names, "-f", str(dotted)]
        log(f"nine: {show(command)}")
        r = run(command, timeout=600)
        dotted.unlink()
        if r.code != 0:
            sys.exit(f"{show(command)} failed: {r.stderr.strip()[:300]}")
        # CSV rows: compiler, version, flags, file, solver, puzzles/s, µs a puzzle, …
        for line in r.stdout.splitlines():
            fields = line.split(",")
            if len(fields) >= 7 and fields[4] in dict(PEERS):
                timed[(fields[4], set_name)] = float(fields[6])
    rows = []
    for name, how in PEERS:
        row = [name, how]
        for set_name, _, _ in sets:
            mine, peer = timed.get((name, set_name)), timed.get(("tdoku", set_name))
            row.append("–" if mine is None else number(mine, 1) if name == "tdoku"
                       else f"{number(mine, 1)} ({ratio(mine, peer)})")
        rows.append(row)
    print()
    print(f"Other 9×9 solvers in tdoku's own driver (`{Path(driver).name} -r 0 -w 1 -t "
          f"{PEER_SECONDS}`: solver calls only, warm, no process start, parsing or output): "
          "µs a puzzle, and in brackets the time against tdoku's in the same run. Beside the "
          "first table's whole processes these favour the peers:")
    print()
    table(["solver", "how it works"] + [name for name, _, _ in sets], rows,
          right=range(2, 2 + len(sets)))


if __name__ == "__main__":
    main()
