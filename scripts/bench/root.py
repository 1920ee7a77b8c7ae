#!/usr/bin/env python3
"""docs/benchmarks/large.md, "Root reasoning": the fixpoint of the root reasoning
(src/solve/root/) on every large grid of benches/data, and the default path (`--root auto`)
against the search alone (`--root none`) and the fixpoint to its end (`--root hall`).

- What the fixpoint leaves: one `examples/root_reasoning` process per grid (cells fixed,
  removals by rule, Hall rounds, steps of work, the reduced formula's literals before and after,
  CPU time and peak memory).
- The whole solve: `sudosat solve --threads 1` with each `--root` mode, REPEAT runs each,
  interleaved, median CPU time and peak memory; auto's CPU time against the faster of none
  and hall, and its memory against that path's.
- The peers on the same formula the search alone gets (`sudosat encode --reduce`): Kissat
  4.0.4 and CaDiCaL 2.2.1 built by scripts/build-peers.sh (or $KISSAT, $CADICAL2), one run
  each, CPU time of the whole process, its parse included.
- `sudoku-225-1`: the grid the fixpoint prints is checked with `sudosat check`.

Environment: GRIDS (names in benches/data/large, default: every grid of side 64 and more),
REPEAT (default 3), TIMEOUT (seconds a solve, default 60), PEERS (0 to leave them out),
SUDOSAT_DATA (default benches/data).
"""

import os
import re
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import (BIN, EXAMPLES, ROOT, WORK, build, data, header, log, number, run,  # noqa: E402
                    seconds, show, table)

REPEAT = int(os.environ.get("REPEAT", "3"))
TIMEOUT = float(os.environ.get("TIMEOUT", "60"))
MODES = ("none", "hall", "auto")
PEER_BINS = ROOT / "target" / "peers" / "bin"


def side(name):
    return int(re.search(r"-(\d+)", name).group(1))


def grids():
    names = os.environ.get("GRIDS")
    if names:
        return [data(f"large/{name}") for name in names.split()]
    folder = data("large")
    found = [p for p in folder.iterdir() if p.name.endswith((".txt", ".txt.xz")) and side(p.name) >= 64]
    return sorted(found, key=lambda p: (side(p.name), p.name))


def short(path):
    return path.name.removesuffix(".xz").removesuffix(".txt")


def peer(env, name):
    path = os.environ.get(env) or str(PEER_BINS / name)
    return path if os.access(path, os.X_OK) else None


def cpu_or_none(r):
    return r.cpu if r.code == 0 and not r.timed_out else None


def main():
    build(examples=True)
    fixpoint = EXAMPLES / "root_reasoning"
    files = grids()
    settled = WORK / "root-225-grid.txt"
    fixpoints = {f: [fixpoint, f] + ([WORK / "root-225.cnf", settled] if short(f) == "sudoku-225-1" else [])
                 for f in files}
    solves = {(f, mode): [BIN, "solve", f, "--root", mode, "--threads", "1", "--timeout", f"{TIMEOUT:g}",
                          "-o", "/dev/null"] for f in files for mode in MODES}
    kissat, cadical = (None, None) if os.environ.get("PEERS") == "0" else (peer("KISSAT", "kissat"),
                                                                            peer("CADICAL2", "cadical"))
    cnfs = {f: WORK / f"root-{short(f)}.cnf" for f in files}
    encodes = {f: [BIN, "encode", "--reduce", f, "-o", cnfs[f]] for f in files}
    peers = [(label, path) for label, path in (("Kissat 4.0.4", kissat), ("CaDiCaL 2.2.1", cadical)) if path]
    check = [BIN, "check", data("large/sudoku-225-1.txt"), "--solution", settled]
    commands = [show(c) for c in fixpoints.values()] + [show(c) for c in solves.values()]
    if peers:
        commands += [show(c) for c in encodes.values()]
        commands += [f"{show([path])} -q {relative_cnf(cnfs[f])}" for _, path in peers for f in files]
    header(commands + [show(check)])

    rows = []
    for f in files:
        log(f"root: fixpoint {short(f)}")
        r = run(fixpoints[f], timeout=3600)
        if r.code != 0:
            sys.exit(f"root_reasoning failed on {f}: {r.stderr.strip()[:300]}")
        v = dict(part.split("=", 1) for part in r.stdout.split() if "=" in part)
        n = side(f.name)
        rows.append([short(f), f"{100 * int(v['givens']) / n / n:.1f} %", number(n * n - int(v["fixed"])),
                     number(int(v["removed_singles"])), number(int(v["removed_locked"])),
                     number(int(v["removed_units"])), number(int(v["removed_fish"])), v["rounds"],
                     number(int(v["work"])), number(int(v["hall_work"])),
                     number(int(v["literals_before"])), number(int(v["literals_after"])),
                     seconds(r.cpu), f"{r.peak_kib / 1024:,.0f} MiB"])
    print("The fixpoint alone, to its end (`examples/root_reasoning`, one thread): share of cells "
          "given, cells left open, candidates removed by singles (the givens' own reduction "
          "included), by locked candidates, by the Hall sets of rows, columns and boxes and by fish "
          "(each digit's rows against its columns), Hall rounds, steps of work in all and in the "
          "Hall rounds (what auto's account counts), literals of the reduced formula before and "
          "after, CPU time and peak memory:")
    print()
    table(["grid", "given", "open", "singles", "locked", "units", "fish", "rounds", "steps", "Hall steps",
           "literals before", "after", "CPU", "memory"], rows)

    if any(short(f) == "sudoku-225-1" for f in files):
        r = run(check, timeout=600)
        verdict = "valid" if r.code == 0 and "1 valid" in r.stdout else f"not valid ({r.stdout.strip()[-200:]})"
        print(f"`sudoku-225-1`: the grid the fixpoint leaves, checked against the rules and the "
              f"givens by `sudosat check`: {verdict}. Every removal holds in every solution, so "
              "one candidate a cell means this is the puzzle's only solution.")
        print()

    rows, worst = [], 0.0
    measured = {}
    for f in files:
        cpu = {m: [] for m in MODES}
        peak = {m: [] for m in MODES}
        for k in range(REPEAT):
            for mode in MODES:
                if k > 0 and None in cpu[mode]:
                    continue  # a time-out is not run again
                log(f"root: solve {short(f)} --root {mode} ({k + 1}/{REPEAT})")
                r = run(solves[(f, mode)], timeout=TIMEOUT + 120)
                cpu[mode].append(cpu_or_none(r))
                peak[mode].append(r.peak_kib / 1024)
        med = {m: (None if None in cpu[m] else statistics.median(cpu[m])) for m in MODES}
        mem = {m: statistics.median(peak[m]) for m in MODES}
        measured[f] = med
        faster = min((m for m in ("none", "hall") if med[m] is not None), key=lambda m: med[m], default=None)
        if faster and med["auto"] is not None:
            against = med["auto"] / med[faster]
            worst = max(worst, against)
            verdict = f"{against:.2f} of {faster}; memory {'≤' if mem['auto'] <= mem[faster] * 1.02 else '>'} {faster}'s"
        else:
            verdict = "no path answered" if not faster else "auto unanswered"
        cell = lambda m: seconds(med[m]) if med[m] is not None else f"> {TIMEOUT:g} s"  # noqa: E731
        rows.append([short(f)] + [cell(m) for m in MODES] + [f"{mem[m]:,.0f}" for m in MODES] + [verdict])
    print(f"The whole solve (`sudosat solve --threads 1`, cdcl, extended+reduced), median CPU time "
          f"of {REPEAT} runs interleaved and peak memory in MiB, with the search alone (`none`), the "
          f"fixpoint to its end first (`hall`), and the default (`auto`: the Hall rounds while they "
          f"pay, on grids of side 64 and more); the last column is auto's time against the "
          f"faster of none and hall (target: at most 1.10) and its memory against that path's "
          f"(2 % allowed for measurement):")
    print()
    table(["grid", "none", "hall", "auto", "none MiB", "hall MiB", "auto MiB", "auto against the faster"], rows,
          right=range(1, 7))
    print(f"Worst ratio of auto to the faster path: **{worst:.2f}**.")
    print()

    if peers:
        rows = []
        for f in files:
            log(f"root: encode {short(f)}")
            e = run(encodes[f], timeout=3600)
            row = [short(f)]
            auto = measured[f]["auto"]
            row.append(seconds(auto) if auto is not None else f"> {TIMEOUT:g} s")
            for label, path in peers:
                if e.code != 0:
                    row += ["–", "–"]
                    continue
                log(f"root: {label} {short(f)}")
                r = run([path, "-q", cnfs[f]], timeout=TIMEOUT)
                answered = r.code in (10, 20) and not r.timed_out
                row.append(seconds(r.cpu) if answered else f"> {TIMEOUT:g} s")
                row.append(f"{r.cpu / auto:.1f}" if answered and auto else "–")
            cnfs[f].unlink(missing_ok=True)
            rows.append(row)
        headings = ["grid", "sudosat (auto)"]
        for label, _ in peers:
            headings += [label, "÷ sudosat"]
        print(f"The peers on the formula the search alone gets (`sudosat encode --reduce`), one run "
              f"each, CPU time of the whole process with its parse, {TIMEOUT:g} s limit; "
              f"÷ sudosat is the peer's time over the default's (above 1: the default is ahead):")
        print()
        table(headings, rows)


def relative_cnf(path):
    return str(path.relative_to(ROOT)) if str(path).startswith(str(ROOT)) else str(path)


if __name__ == "__main__":
    main()
