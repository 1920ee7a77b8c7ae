#!/usr/bin/env python3
"""docs/benchmarks/memory.md, "Memory": peak resident memory of the default path, and of
CaDiCaL on the same CNF, measured in the same run.

One `sudosat solve` process per input (every core; the portfolio's copies included), its
peak resident set from GNU time; CaDiCaL (`cadical -q`) on the `sudosat encode --reduce` CNF
of each single grid. A run stopped at its time limit reports the peak up to then.

Environment: TIMEOUT (seconds a solve, default 30), TIMEOUT_225 (default 60), CADICAL
(default `cadical` on PATH), SUDOSAT_DATA (default benches/data).
"""

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import BIN, WORK, build, data, header, log, run, seconds, show, table, tool  # noqa: E402

TIMEOUT = float(os.environ.get("TIMEOUT", "30"))
TIMEOUT_225 = float(os.environ.get("TIMEOUT_225", "60"))
INPUTS = [("minimal-2k (2,000 puzzles)", "9x9/minimal-2k.txt", False),
          ("expert-375 (375 puzzles)", "9x9/expert-375.txt", False),
          ("gecode 25×25 puzzle 1", "hard/gecode-25x25-6.txt:1", True)] + [
    (f"{n}×{n}", f"large/sudoku-{n}-1.txt", True) for n in (25, 64, 81, 100, 144, 225)]


def source(rel):
    """A set, or one puzzle of it (`file:K`) written to its own file."""
    if ":" not in rel:
        return data(rel)
    rel, place = rel.split(":")
    puzzles = [line for line in open(data(rel)) if line.strip() and not line.startswith("#")]
    path = WORK / f"memory-{Path(rel).stem}-{place}.txt"
    path.write_text(puzzles[int(place) - 1])
    return path


def main():
    build()
    cadical = tool("CADICAL", "cadical")
    plan = []
    for label, rel, single in INPUTS:
        path = source(rel)
        limit = TIMEOUT_225 if "225" in rel else TIMEOUT
        solve = [str(BIN), "solve", str(path), "--timeout", f"{limit:g}", "-o", "/dev/null"]
        cnf = WORK / f"memory-{path.stem.removeprefix('memory-')}.cnf"
        encode = [str(BIN), "encode", "--reduce", str(path), "-o", str(cnf)] if single and cadical else None
        peer = [cadical, "-q", str(cnf)] if encode else None
        plan.append((label, limit, solve, encode, peer))
    commands = []
    for _, _, solve, encode, peer in plan:
        commands += [show(c) for c in (solve, encode, peer) if c]
    header(commands)

    rows = []
    for label, limit, solve, encode, peer in plan:
        log(f"memory: {show(solve)}")
        mine = run(solve, timeout=limit + 60)
        row = [label, (seconds(mine.wall) if mine.code == 0 else f"stopped at {limit:g} s"),
               f"{mine.peak_kib / 1024:,.0f} MiB"]
        if peer:
            run(encode, timeout=600)
            log(f"memory: {show(peer)}")
            theirs = run(peer, timeout=limit)
            Path(encode[-1]).unlink()
            done = theirs.code in (10, 20) and not theirs.timed_out
            row += [(seconds(theirs.wall) if done else f"stopped at {limit:g} s"),
                    f"{theirs.peak_kib / 1024:,.0f} MiB", f"{mine.peak_kib / theirs.peak_kib:.2f}"]
        else:
            row += ["–", "–", "–"]
        rows.append(row)
    print("Peak resident memory of the process (GNU time's maximum resident set; for `sudosat "
          "solve` with every core, the portfolio's copies included; a run stopped at its limit "
          "reports its peak until then), and the ratio ours ÷ CaDiCaL 1.5.3's (Debian's) on the same reduced CNF "
          "in the same run:")
    print()
    table(["input", "sudosat solve", "peak", "CaDiCaL 1.5.3", "peak", "÷ CaDiCaL"], rows)


if __name__ == "__main__":
    main()
