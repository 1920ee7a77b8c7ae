#!/usr/bin/env python3
"""docs/benchmarks/hard.md, "Against Kissat 4 on fresh puzzles": cdcl against Kissat 4.0.4
and the SAT Competition 2025 winner AE-Kissat-MAB on hard 25×25 puzzles made when the script
runs, which no choice in the search was measured on.

- The puzzles: PUZZLES (default 24) made by `examples/hard_puzzle` (scripts/make-hard-puzzles.sh) from seeds SEED,
  SEED + 1, … (SEED drawn at random and printed unless set): a random full grid cut to a
  minimal puzzle, then made sparser by moves that keep one solution, down to 44 % given
  (the Gecode puzzles have 43–45 %). The method asks a search only whether a puzzle keeps
  one solution; it knows nothing of how hard any solver finds it. PUZZLE_FILE (one puzzle
  a line) takes the place of the made ones.
- The draws: each puzzle and COPIES - 1 random isomorphs (scripts/isomorphs.py, with a
  seed drawn when the script runs and printed), 96 by default, each encoded once (`sudosat
  encode --reduce`); blocks of 12 draws, one draw of each of 12 puzzles.
- The entries, one process a draw on one thread, CPU time with a CPU-second limit
  (scripts/bench/kissat.py measures them): Kissat 4.0.4 (the reference), `sudosat sat` on
  the same CNF, `sudosat solve` on the puzzle, AE-Kissat-MAB when $AE_KISSAT names its
  binary (built from its competition sources by the user; skipped with a printed reason
  otherwise), the runner-up Kissat-public likewise ($KISSAT_PUBLIC), CaDiCaL 2.2.1 and
  CaDiCaL 3.0.1 when built (scripts/build-peers.sh; $CADICAL, $CADICAL3).

Environment: SEED, ISO_SEED, PUZZLES, PUZZLE_FILE, COPIES (default 4), CPU (seconds a run,
default 60), KISSAT, CADICAL, CADICAL3, AE_KISSAT, KISSAT_PUBLIC, MAKE_JOBS (puzzles made at once, default 2).
"""

import os
import random
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import BIN, EXAMPLES, ROOT, WORK, build, header, log, relative, run, show  # noqa: E402
import kissat  # noqa: E402

CPU = float(os.environ.get("CPU", "60"))
COPIES = int(os.environ.get("COPIES", "4"))
PUZZLES = int(os.environ.get("PUZZLES", "24"))
MAKE_JOBS = int(os.environ.get("MAKE_JOBS", "2"))
AE_KISSAT = os.environ.get("AE_KISSAT")
KISSAT_PUBLIC = os.environ.get("KISSAT_PUBLIC")
BLOCK = 12
FOLDER = WORK / "fresh-draws"


def drawn(name):
    value = os.environ.get(name)
    return int(value) if value else random.SystemRandom().randrange(1, 2**31)


def make(seed):
    r = run([EXAMPLES / "hard_puzzle", seed], timeout=7200)
    lines = [line for line in r.stdout.split() if line.strip()]
    if r.code != 0 or len(lines) != 1:
        sys.exit(f"hard_puzzle {seed} failed: exit {r.code} {r.stderr.strip()[-300:]}")
    log(f"fresh: puzzle {seed}: {r.stderr.strip().splitlines()[-1] if r.stderr.strip() else ''}")
    return lines[0]


def puzzles(seed):
    """The puzzles: PUZZLE_FILE's, or those of seeds SEED … made once and kept in
    target/bench (making 24 takes about an hour of CPU)."""
    file = os.environ.get("PUZZLE_FILE")
    if file:
        return [line.strip() for line in open(file) if line.strip() and not line.startswith("#")]
    kept = WORK / f"fresh-puzzles-{seed}-{PUZZLES}.txt"
    if kept.exists():
        log(f"fresh: the puzzles of seed {seed}, made before: {relative(kept)}")
        return kept.read_text().split()
    with ThreadPoolExecutor(MAKE_JOBS) as pool:
        lines = list(pool.map(make, range(seed, seed + PUZZLES)))
    kept.write_text("\n".join(lines) + "\n")
    return lines


def draws(lines, iso_seed):
    FOLDER.mkdir(parents=True, exist_ok=True)
    for old in FOLDER.glob("*"):
        old.unlink()
    source = FOLDER / "puzzles.txt"
    source.write_text("\n".join(lines) + "\n")
    copies = subprocess.run([sys.executable, str(ROOT / "scripts" / "isomorphs.py"), str(source), str(COPIES),
                             str(iso_seed)], capture_output=True, text=True, check=True).stdout.split()
    out = []
    for k, line in enumerate(copies):
        puzzle, cnf = FOLDER / f"{k:03d}.txt", FOLDER / f"{k:03d}.cnf"
        puzzle.write_text(line + "\n")
        if run([BIN, "encode", "--reduce", puzzle, "-o", cnf]).code != 0:
            sys.exit(f"encode failed on {puzzle}")
        out.append((puzzle, cnf))
    return out


def main():
    if not os.access(kissat.KISSAT, os.X_OK):
        sys.exit(f"{kissat.KISSAT}: missing (scripts/build-peers.sh builds it)")
    seed, iso_seed = drawn("SEED"), drawn("ISO_SEED")
    build(examples=True)
    lines = puzzles(seed)
    files = draws(lines, iso_seed)
    shown = [FOLDER / "NNN.txt", FOLDER / "NNN.cnf"]
    entries = [("Kissat 4.0.4", kissat.kissat([])), ("sudosat sat", kissat.sudosat_sat()),
               ("sudosat solve", kissat.sudosat_solve())]
    skipped = []
    # The competition builds take no options (`./configure --competition`): no `-q`.
    if AE_KISSAT and os.access(AE_KISSAT, os.X_OK):
        entries.append(("AE-Kissat-MAB", lambda puzzle, cnf: [AE_KISSAT, cnf]))
    else:
        skipped.append("AE-Kissat-MAB not run: set AE_KISSAT to its binary, built from its SAT "
                       "Competition 2025 sources.")
    if KISSAT_PUBLIC and os.access(KISSAT_PUBLIC, os.X_OK):
        entries.append(("Kissat-public", lambda puzzle, cnf: [KISSAT_PUBLIC, cnf]))
    else:
        skipped.append("Kissat-public (the 2025 runner-up) not run: set KISSAT_PUBLIC to its binary.")
    if os.access(kissat.CADICAL, os.X_OK):
        entries.append(("CaDiCaL 2.2.1", lambda puzzle, cnf: [kissat.CADICAL, "-q", cnf]))
    # CaDiCaL 3, the successor of the 3.0.0-rc1 preview: the release sudosat embeds.
    if os.access(kissat.CADICAL3, os.X_OK):
        entries.append(("CaDiCaL 3.0.1", lambda puzzle, cnf: [kissat.CADICAL3, "-q", cnf]))
    else:
        skipped.append("CaDiCaL 3.0.1 not run: scripts/build-peers.sh builds it.")
    made = (f"PUZZLE_FILE={os.environ['PUZZLE_FILE']}" if os.environ.get("PUZZLE_FILE") else
            f"target/release/examples/hard_puzzle S  # S = {seed} … {seed + PUZZLES - 1}")
    header([made, f"python3 scripts/isomorphs.py target/bench/fresh-draws/puzzles.txt {COPIES} {iso_seed}",
            show([BIN, "encode", "--reduce", shown[0], "-o", shown[1]])]
           + [f"{show(command(*shown))}  # {label}" for label, command in entries])
    givens = [sum(ch != "." for ch in line) for line in lines]
    print(f"Seeds drawn for this run: puzzles **{seed}**, isomorphs **{iso_seed}** (`SEED={seed} "
          f"ISO_SEED={iso_seed} scripts/benchmarks.sh fresh` repeats it). {len(lines)} puzzles "
          f"of {min(givens)}–{max(givens)} givens, {COPIES} draws each (the puzzle and "
          f"{COPIES - 1} isomorphs), {len(files)} draws; one process a draw on one thread, CPU "
          f"time with a {CPU:g} s limit; a block is one draw of each of 12 puzzles.")
    print()
    for line in skipped:
        print(line)
        print()
    times, timeouts = kissat.measure(entries, files, CPU, "fresh")
    # Draw k is copy k % COPIES of puzzle k // COPIES.
    block_of = [(k // COPIES // BLOCK) * COPIES + k % COPIES for k in range(len(files))]
    kissat.summary(times, timeouts, "Kissat 4.0.4", CPU, block_of)
    per_puzzle = []
    for p in range(len(lines)):
        ours = sum(times["sudosat sat"][p * COPIES:(p + 1) * COPIES])
        theirs = sum(times["Kissat 4.0.4"][p * COPIES:(p + 1) * COPIES])
        per_puzzle.append(theirs / ours if ours else float("inf"))
    behind = sum(1 for r in per_puzzle if r < 1)
    print(f"Per puzzle (its {COPIES} draws), Kissat 4.0.4's time over `sudosat sat`'s: "
          f"{min(per_puzzle):.2f} to {max(per_puzzle):.2f}; behind Kissat on {behind} of "
          f"{len(lines)} puzzles.")


if __name__ == "__main__":
    main()
