#!/usr/bin/env python3
"""docs/benchmarks/hard.md, "Against Kissat 4": the built-in cdcl against the SAT
competition's current winner, Kissat 4.0.4 (built by scripts/build-peers.sh from the sources
its crate carries), on draws that single runs cannot mislead, and Kissat's own techniques
ablated on the same draws.

- The draws: the six Gecode 25×25 puzzles (benches/data/hard) and 7 random isomorphs of
  each (scripts/isomorphs.py, seed 54), 48 in all, each encoded once (`sudosat encode
  --reduce`). An isomorph is exactly as hard for a solver that reasons, but a CDCL search
  takes another path through it: the spread of one puzzle's runs is the search's own.
- Every solver is one process per draw, one thread, limited in CPU seconds (RLIMIT_CPU, so
  that a loaded machine does not turn into time-outs); a time-out counts its limit. The
  draws are run one after another, every entry on a draw before the next draw.
- Reported per entry: total CPU time, its ratio to the reference (Kissat's default), the
  totals of the four blocks of 12 draws (block k: draws 2k and 2k + 1 of each of the six
  puzzles, so that every block holds every puzzle), the median over the draws of the reference's time over the entry's
  (above 1: the entry is faster), and the draws where it is faster.
- SECTION=ablation: Kissat with one technique off (or one mode forced) per row.
- SECTION=versus (default): sudosat (`sat --threads 1` on the same CNF, and `solve
  --threads 1` on the puzzle itself) and CaDiCaL 2.2.1 against Kissat; then `sudoku-64-1`
  and 3 isomorphs (Kissat and sudosat only: each peer needs about 100 s a draw there).

Environment: SECTION (versus, ablation, both), CPU (seconds a run, default 60; CPU_64, 300,
for sudoku-64-1), LARGE (0 leaves sudoku-64-1 out), COPIES (draws a puzzle, default 8), KISSAT and CADICAL
(default target/peers/bin/kissat, cadical),
BUILDS (`label=path;…`: other sudosat binaries whose `sat` runs beside, e.g. the revision
before a change to the search), SUDOSAT_DATA.
"""

import os
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import BIN, ROOT, WORK, build, data, header, log, run, show, table  # noqa: E402

CPU = float(os.environ.get("CPU", "60"))
COPIES = int(os.environ.get("COPIES", "8"))
SECTION = os.environ.get("SECTION", "versus")
KISSAT = os.environ.get("KISSAT") or str(ROOT / "target" / "peers" / "bin" / "kissat")
CADICAL = os.environ.get("CADICAL") or str(ROOT / "target" / "peers" / "bin" / "cadical")
CADICAL3 = os.environ.get("CADICAL3") or str(ROOT / "target" / "peers" / "bin" / "cadical3")
BLOCK = 12

# Kissat 4.0.4's options, one technique off (or one mode) a row.
ABLATION = [
    ("default", []),
    ("--eliminate=false", ["--eliminate=false"]),
    ("--vivify=false", ["--vivify=false"]),
    ("--forward=false (subsumption)", ["--forward=false"]),
    ("--probe=false", ["--probe=false"]),
    ("--substitute=false", ["--substitute=false"]),
    ("--stable=0 (focused only)", ["--stable=0"]),
    ("--stable=2 (stable only)", ["--stable=2"]),
    ("--target=0", ["--target=0"]),
    ("--tier1=1 --tier2=1", ["--tier1=1", "--tier2=1"]),
    ("--chrono=false", ["--chrono=false"]),
    ("--factor=false", ["--factor=false"]),
    ("--shrink=0", ["--shrink=0"]),
    ("--bumpreasons=false", ["--bumpreasons=false"]),
]


def draws():
    """The 48 draws as (puzzle file, CNF file), made once."""
    folder = WORK / "kissat-draws"
    folder.mkdir(parents=True, exist_ok=True)
    lines = subprocess.run([sys.executable, str(ROOT / "scripts" / "isomorphs.py"),
                            str(data("hard/gecode-25x25-6.txt")), str(COPIES), "54"],
                           capture_output=True, text=True, check=True).stdout.split()
    out = []
    for k, line in enumerate(lines):
        puzzle, cnf = folder / f"{k:02d}.txt", folder / f"{k:02d}.cnf"
        if not puzzle.exists() or puzzle.read_text().strip() != line:
            puzzle.write_text(line + "\n")
            cnf.unlink(missing_ok=True)
        if not cnf.exists():
            if run([BIN, "encode", "--reduce", puzzle, "-o", cnf]).code != 0:
                sys.exit(f"encode failed on {puzzle}")
        out.append((puzzle, cnf))
    return out


def measure(entries, files, limit, name):
    """CPU seconds of every entry on every draw (the limit for a time-out), and time-outs;
    the times also go to target/bench/kissat-NAME.csv, a row a draw, for a closer look."""
    times = {label: [] for label, _ in entries}
    timeouts = {label: 0 for label, _ in entries}
    for k, (puzzle, cnf) in enumerate(files):
        for label, command in entries:
            log(f"kissat: draw {k + 1}/{len(files)} {label}")
            r = run(command(puzzle, cnf), timeout=limit * 4 + 60, cpu_limit=limit)
            answered = r.code in (0, 10) and not r.timed_out
            if not answered and not r.timed_out:
                sys.exit(f"{label} failed on {puzzle}: exit {r.code} {r.stderr.strip()[:300]}")
            times[label].append(r.cpu if answered else limit)
            timeouts[label] += 0 if answered else 1
    with open(WORK / f"kissat-{name}.csv", "w") as out:
        out.write(",".join(["draw"] + [label for label, _ in entries]) + "\n")
        for k, (puzzle, _) in enumerate(files):
            out.write(",".join([puzzle.stem] + [f"{times[label][k]:.3f}" for label, _ in entries]) + "\n")
    return times, timeouts


def summary(times, timeouts, reference, limit, block_of=None):
    """A row an entry; `block_of` gives each draw's block (default: two copies of every
    puzzle a block, draw k being copy k % COPIES of puzzle k // COPIES)."""
    rows = []
    ref = times[reference]
    if block_of is None:
        per_block = max(1, BLOCK // (len(ref) // COPIES))
        block_of = [(k % COPIES) // per_block for k in range(len(ref))]
    blocks = sorted(set(block_of))
    for label, values in times.items():
        total = sum(values)
        per_draw = [r / v for r, v in zip(ref, values) if v > 0]
        wins = sum(1 for r, v in zip(ref, values) if v < r)
        row = [label, f"{total:.1f}", f"{total / sum(ref):.2f}"]
        row += [f"{sum(v for v, b in zip(values, block_of) if b == block):.1f}" for block in blocks]
        row += [f"{statistics.median(per_draw):.2f}" if per_draw else "–",
                "–" if label == reference else f"{wins} of {len(values)}",
                str(timeouts[label])]
        rows.append(row)
    headings = ["entry", "CPU s", f"÷ {reference}"] + [f"block {i + 1}" for i in range(len(blocks))]
    headings += [f"median {reference} ÷ entry", f"faster than {reference}", f"time-outs ({limit:g} s)"]
    table(headings, rows)


def kissat(options):
    return lambda puzzle, cnf: [KISSAT, "-q", *options, cnf]


def sudosat_sat(binary=BIN):
    return lambda puzzle, cnf: [binary, "sat", "--threads", "1", cnf]


def builds():
    """Other sudosat builds to put beside this one (`label=path;…` in $BUILDS): a change to
    the search measured against the revision before it, on the same draws."""
    out = []
    for item in filter(None, os.environ.get("BUILDS", "").split(";")):
        label, _, path = item.partition("=")
        out.append((label.strip(), path.strip()))
    return out


def sudosat_solve(binary=BIN):
    return lambda puzzle, cnf: [binary, "solve", "--threads", "1", "-o", "/dev/null", puzzle]


def main():
    if not os.access(KISSAT, os.X_OK):
        sys.exit(f"{KISSAT}: missing (scripts/build-peers.sh builds it)")
    build()
    files = draws()
    shown = [(ROOT / "target" / "bench" / "kissat-draws" / "NN.txt"),
             (ROOT / "target" / "bench" / "kissat-draws" / "NN.cnf")]
    commands = [f"python3 scripts/isomorphs.py {show([data('hard/gecode-25x25-6.txt')])} {COPIES} 54",
                show([BIN, "encode", "--reduce", shown[0], "-o", shown[1]])]
    if SECTION in ("versus", "both"):
        commands += [show(kissat([])(*shown)), show(sudosat_sat()(*shown)), show(sudosat_solve()(*shown)),
                     show([CADICAL, "-q", shown[1]])]
    if SECTION in ("ablation", "both"):
        commands += [show(kissat(["OPTION"])(*shown))]
    header(commands)
    print(f"{len(files)} draws (the six Gecode puzzles, {COPIES} draws each: the puzzle and "
          f"{COPIES - 1} isomorphs), one process a draw on one thread, CPU time with a "
          f"{CPU:g} s limit; a block is two draws of each puzzle (12 draws).")
    print()

    if SECTION in ("versus", "both"):
        entries = [("Kissat 4.0.4", kissat([])), ("sudosat sat", sudosat_sat()), ("sudosat solve", sudosat_solve())]
        if os.access(CADICAL, os.X_OK):
            entries.append(("CaDiCaL 2.2.1", lambda puzzle, cnf: [CADICAL, "-q", cnf]))
        entries += [(f"sudosat sat ({label})", sudosat_sat(path)) for label, path in builds()]
        times, timeouts = measure(entries, files, CPU, "versus")
        print("sudosat against Kissat 4.0.4: `sudosat sat` solves the same reduced CNF as Kissat, "
              "its parse included; `sudosat solve` is the whole job on the puzzle (parse, encode, "
              "solve, decode, check):")
        print()
        summary(times, timeouts, "Kissat 4.0.4", CPU)
        if os.environ.get("LARGE") == "0":
            return
        big = float(os.environ.get("CPU_64", "300"))
        large = large_draws()
        entries = [("Kissat 4.0.4", kissat([])), ("sudosat solve", sudosat_solve())]
        entries += [(f"sudosat solve ({label})", sudosat_solve(path)) for label, path in builds()]
        times, timeouts = measure(entries, large, big, "64-1")
        print(f"`sudoku-64-1` and 3 isomorphs (several solutions each), {big:g} s limit:")
        print()
        rows = [[label, " / ".join(f"{v:.1f}" for v in values), f"{sum(values):.1f}",
                 f"{sum(times['Kissat 4.0.4']) / sum(values):.1f}", str(timeouts[label])]
                for label, values in times.items()]
        table(["entry", "CPU s a draw", "total", "Kissat ÷ entry", "time-outs"], rows)

    if SECTION in ("ablation", "both"):
        entries = [(label, kissat(options)) for label, options in ABLATION]
        times, timeouts = measure(entries, files, CPU, "ablation")
        print("Kissat 4.0.4 with one technique off (or one mode forced) a row, against its default "
              "on the same draws:")
        print()
        summary(times, timeouts, "default", CPU)


def large_draws():
    folder = WORK / "kissat-64"
    folder.mkdir(parents=True, exist_ok=True)
    text = subprocess.run([sys.executable, str(ROOT / "scripts" / "isomorphs.py"),
                           str(data("large/sudoku-64-1.txt")), "4", "1"],
                          capture_output=True, text=True, check=True).stdout
    out = []
    for k, grid in enumerate(text.strip().split("\n\n")):
        puzzle, cnf = folder / f"{k}.txt", folder / f"{k}.cnf"
        if not puzzle.exists() or puzzle.read_text() != grid + "\n":
            puzzle.write_text(grid + "\n")
            cnf.unlink(missing_ok=True)
        if not cnf.exists() and run([BIN, "encode", "--reduce", puzzle, "-o", cnf]).code != 0:
            sys.exit(f"encode failed on {puzzle}")
        out.append((puzzle, cnf))
    return out


if __name__ == "__main__":
    main()
