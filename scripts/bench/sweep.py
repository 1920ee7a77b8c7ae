#!/usr/bin/env python3
"""docs/benchmarks/large.md, "Root reasoning on grids made for the sweep": `--root auto`
against the search alone (`--root none`) and the fixpoint to its end (`--root hall`) on
grids made when the script runs, from a seed drawn then and printed, by three methods
(`examples/large_puzzle`):

- `search`: one solution, cells blanked in a random order while the puzzle still has one
  solution; what stays blank depends on that fact alone, not on the root fixpoint (the
  check reasons at the root only to shorten its proofs: src/generate/unique.rs);
- `fixpoint`: one solution, cells blanked while the root fixpoint still settles the puzzle
  (the method the shipped `unique-*` grids come from);
- `random`: cells blanked in a random order with no check (several solutions, as a rule).

Each method makes one grid per side and given share, from one full grid and one order of
its cells. Each grid is solved with `sudosat solve --threads 1` in each mode, REPEAT runs
interleaved where any mode answers within TIMEOUT, median CPU time and peak memory, and
auto's time against the faster of the other two. Kissat 4.0.4 (scripts/build-peers.sh, or
$KISSAT) runs once on the formula the search alone gets (`sudosat encode --reduce`) of the
one-solution grids of side KISSAT_SIDES.

Environment: SEED (default: drawn at random and printed), SIDES (default 64 100 144; the
wider sides are scripts/bench/sweep-wide.py's table), SHARES (default 0.80 0.76 0.72 0.68 0.64 0.60), METHODS (default search fixpoint
random), TIMEOUT (seconds a solve, default 60), REPEAT (default 3), MAKE_TIMEOUT (seconds
to make one side's grids by one method, default 1800), KISSAT_SIDES (default 400; empty
for none).
"""

import os
import random
import shlex
import re
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import (BIN, EXAMPLES, ROOT, WORK, build, header, log, number, relative, run,  # noqa: E402
                    seconds, show, table)

TIMEOUT = float(os.environ.get("TIMEOUT", "60"))
REPEAT = int(os.environ.get("REPEAT", "3"))
MAKE_TIMEOUT = float(os.environ.get("MAKE_TIMEOUT", "1800"))
SIDES = [int(s) for s in os.environ.get("SIDES", "64 100 144").split()]
SHARES = os.environ.get("SHARES", "0.80 0.76 0.72 0.68 0.64 0.60").split()
METHODS = os.environ.get("METHODS", "search fixpoint random").split()
KISSAT_SIDES = [int(s) for s in os.environ.get("KISSAT_SIDES", "400").split()]
MODES = ("none", "hall", "auto")
# The settings a run's reader needs to make it again, printed when set.
SETTINGS = ("SIDES", "SHARES", "METHODS", "TIMEOUT", "MAKE_TIMEOUT", "KISSAT_SIDES")
# The section whose table this run fills (scripts/bench/sweep-wide.py sets its own).
SECTION = "sweep"
# Ratios count where the faster path takes this long: below, a process's start and its
# parse are most of a run, and the clock's noise is of the size of the differences.
MIN_TIMED = 0.2
OUT = WORK / "sweep"
ANSWER = WORK / "sweep-answer.txt"

# What large_puzzle prints for each grid it writes.
MADE = re.compile(r"^(\S+) (\d+)x\d+ seed=\d+ givens=(\d+) \(([\d.]+) %\) checks=(\d+)(.*?) seconds=([\d.]+)$")


def box(side):
    b = round(side ** 0.5)
    if b * b != side:
        sys.exit(f"SIDES: {side} is not the square of a box size")
    return b


def kissat():
    path = os.environ.get("KISSAT") or str(ROOT / "target" / "peers" / "bin" / "kissat")
    return path if os.access(path, os.X_OK) else None


def make(side, method, seed):
    """The grids of one side by one method: [(path, given %, note)]."""
    command = [EXAMPLES / "large_puzzle", box(side), method, seed, OUT, *SHARES]
    log(f"sweep: {show(command)}")
    r = run(command, timeout=MAKE_TIMEOUT)
    grids = []
    for line in r.stdout.splitlines():
        m = MADE.match(line.strip())
        if m:
            grids.append((Path(m.group(1)), float(m.group(4)), m.group(6).strip()))
    if r.timed_out:
        log(f"sweep: {method} {side}: stopped after {MAKE_TIMEOUT:g} s with {len(grids)} grids")
    elif r.code != 0:
        log(f"sweep: {method} {side}: exit {r.code}: {r.stderr.strip()[-300:]}")
    return command, grids


def solve(path, mode):
    return [BIN, "solve", path, "--root", mode, "--threads", "1", "--timeout", f"{TIMEOUT:g}",
            "--stats", "-o", ANSWER]


def answered(r):
    """Whether the solve ended with an answer (a solution or none), not at its time limit."""
    if r.code not in (0, 1) or r.timed_out:
        return False
    try:
        return "stopped" not in ANSWER.read_text()
    except OSError:
        return False


def measure(path):
    """Per mode: (median CPU or None, median peak KiB, root ending)."""
    runs = {mode: [] for mode in MODES}
    for attempt in range(REPEAT):
        for mode in MODES:
            ANSWER.unlink(missing_ok=True)
            r = run(solve(path, mode), timeout=TIMEOUT + 30)
            r.answered = answered(r)
            runs[mode].append(r)
        if attempt == 0 and not any(r.answered for rs in runs.values() for r in rs):
            break
    result = {}
    for mode, rs in runs.items():
        good = [r for r in rs if r.answered]
        ending = re.search(r" root=(\w+)", rs[0].stderr)
        result[mode] = (statistics.median(r.cpu for r in good) if good else None,
                        statistics.median(r.peak_kib for r in rs),
                        ending.group(1) if ending else "–")
    return result


def peer_time(path, solver):
    cnf = OUT / (path.name.removesuffix(".txt") + ".cnf")
    r = run([BIN, "encode", "--reduce", path, "-o", cnf])
    if r.code != 0:
        return None
    r = run([solver, "-q", cnf], timeout=TIMEOUT + 30)
    cnf.unlink(missing_ok=True)
    return r.cpu if r.code in (10, 20) and not r.timed_out else None


def cell(value, memory=None):
    if value is None:
        return f"– (> {TIMEOUT:g} s)"
    return seconds(value) + (f", {number(memory / 1024)} MB" if memory is not None else "")


def main():
    seed = int(os.environ.get("SEED") or random.SystemRandom().randrange(1, 2**31))
    build(examples=True)
    OUT.mkdir(parents=True, exist_ok=True)
    for old in OUT.glob("*"):
        old.unlink()
    solver = kissat()
    makes, rows, ratios, kissat_ratios = [], [], [], []
    unanswered = 0
    for side in SIDES:
        for method in METHODS:
            command, grids = make(side, method, seed)
            makes.append(show(command))
            for path, given, note in grids:
                log(f"sweep: {path.name}")
                m = measure(path)
                times = {mode: m[mode][0] for mode in MODES}
                others = [t for mode, t in times.items() if mode != "auto" and t is not None]
                best = min(others) if others else None
                auto = times["auto"]
                if auto is None and best is None:
                    unanswered += 1
                    versus = "none answers"
                elif auto is None:
                    versus = "auto unanswered"
                    ratios.append(float("inf"))
                elif best is None:
                    versus = "only auto answers"
                elif best < MIN_TIMED:
                    versus = f"{auto / best:.2f} (below {MIN_TIMED:g} s)"
                else:
                    ratios.append(auto / best)
                    versus = f"{auto / best:.2f}"
                peer = "not run"
                if solver and side in KISSAT_SIDES and method != "random":
                    k = peer_time(path, solver)
                    peer = cell(k)
                    if k and auto:
                        kissat_ratios.append((path.name, k / auto))
                        peer += f" ({k / auto:.2f}× auto)"
                rows.append([side, method, f"{given:.1f} %" + (" (no further)" if note else ""),
                             cell(times["none"], m["none"][1]), cell(times["hall"], m["hall"][1]),
                             f"{cell(auto, m['auto'][1])}, {m['auto'][2]}", versus, peer])
    header(makes + [f"{show(solve(Path('GRID'), mode))}  # each grid, each mode".replace(relative(ANSWER), "ANSWER")
                    for mode in MODES]
           + ([f"sudosat encode --reduce GRID -o GRID.cnf && kissat -q GRID.cnf  # sides {KISSAT_SIDES}"]
              if solver else []))
    settings = [f"SEED={seed}"] + [f"{key}={shlex.quote(os.environ[key])}" for key in SETTINGS
                                   if os.environ.get(key)]
    print(f"Seed drawn for this run: **{seed}** (`{' '.join(settings)} scripts/benchmarks.sh {SECTION}` "
          f"makes the same grids and measures them again). Median CPU time of {REPEAT} runs where any mode answers, one run "
          f"where none does, peak memory, and auto's root ending; `auto / best` is auto's time "
          f"against the faster of none and hall.")
    print()
    table(["side", "method", "given", "--root none", "--root hall", "--root auto", "auto / best",
           "Kissat 4.0.4"], rows, right={0, 2, 3, 4, 5, 6, 7})
    finite = [r for r in ratios if r != float("inf")]
    if not ratios:
        print(f"No grid where the faster of none and hall takes {MIN_TIMED:g} s or more: no ratio "
              f"counts. {unanswered} grids answered by no mode in {TIMEOUT:g} s.")
    if ratios:
        within = sum(1 for r in ratios if r <= 1.1)
        print(f"Auto within 1.1× of the faster other mode on {within} of {len(ratios)} grids "
              f"where that mode takes at least {MIN_TIMED:g} s; worst {max(ratios):.2f}, median "
              f"{statistics.median(ratios):.2f}" + ("" if finite == ratios else
                                                  f" ({len(ratios) - len(finite)} auto did not answer)")
              + f". {unanswered} grids answered by no mode in {TIMEOUT:g} s.")
    if kissat_ratios:
        behind = [name for name, r in kissat_ratios if r < 1]
        print(f"Kissat against auto on the one-solution grids: {', '.join(f'{r:.2f}' for _, r in kissat_ratios)}"
              f" (above 1: auto faster); auto behind on {len(behind)}.")
    elif not solver:
        print("Kissat 4.0.4 not run: build it with scripts/build-peers.sh or set KISSAT.")


if __name__ == "__main__":
    main()
