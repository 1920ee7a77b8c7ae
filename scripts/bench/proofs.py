#!/usr/bin/env python3
"""docs/benchmarks/proofs.md, "Proofs": what DRAT proofs cost and how fast drat-trim checks
them.

First `examples/proof_overhead` (uniqueness checks, i.e. counting to 2, of every puzzle of
a set, in rounds that alternate the plain and the proof-writing solve): the backend's solve
time with a text DRAT proof against without, in the same run. Then `sudosat count
--proof-dir` on samples of the sets, text and binary DRAT, each proof checked by drat-trim.

Environment: DRAT_TRIM (the binary; default `drat-trim` on PATH; built with
`cc -O2 -o drat-trim drat-trim.c` from github.com/marijnheule/drat-trim), ROUNDS (default 5),
SUDOSAT_DATA (default benches/data).
"""

import os
import re
import shutil
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import BIN, EXAMPLES, WORK, build, data, header, log, run, show, table, tool  # noqa: E402

ROUNDS = os.environ.get("ROUNDS", "5")
# (label, file, puzzles taken by their place in the file, counting from 1)
SAMPLES = [
    ("minimal-2k, first 20", "9x9/minimal-2k.txt", range(1, 21)),
    ("expert-375, first 20", "9x9/expert-375.txt", range(1, 21)),
    ("gecode 25×25, puzzles 1, 3, 5, 6", "hard/gecode-25x25-6.txt", [1, 3, 5, 6]),
]


def sample(label, rel, places):
    puzzles = [line for line in open(data(rel)) if line.strip() and not line.startswith("#")]
    path = WORK / ("proofs-" + Path(rel).stem + ".txt")
    path.write_text("".join(puzzles[i - 1] for i in places))
    return path


def main():
    build(examples=True)
    drat_trim = tool("DRAT_TRIM", "drat-trim")
    overhead = [str(EXAMPLES / "proof_overhead"), str(data("9x9/expert-375.txt")), "cdcl", ROUNDS]
    counts = []
    for label, rel, places in SAMPLES:
        path = sample(label, rel, places)
        for binary in (False, True):
            out = WORK / f"{path.stem}-{'binary' if binary else 'text'}"
            command = [str(BIN), "count", str(path), "--threads", "1", "--proof-dir", str(out)]
            if binary:
                command.append("--binary-proof")
            counts.append((label, binary, out, command))
    shown = [show(overhead + ["plain"]), show(overhead + ["proof"])] + [show(c) for *_, c in counts]
    shown.append("drat-trim DIR/puzzle-K.cnf DIR/puzzle-K.drat   # each proof" if drat_trim
                 else "# drat-trim not found (DRAT_TRIM): proofs not checked")
    header(shown)

    # One mode per process, alternating: in one process the mode that runs second gains
    # from the first one's warm caches and allocations.
    best = {}
    for _ in range(3):
        for mode in ("plain", "proof"):
            log(f"proofs: overhead, {mode}")
            r = run(overhead + [mode], timeout=1800)
            if r.code != 0:
                sys.exit(f"proof_overhead failed: {r.stderr.strip()[:300]}")
            solve = re.search(r"solve µs/puzzle: ([\d.]+) plain, ([\d.]+) with proof", r.stdout)
            whole = re.search(r"whole count µs/puzzle: ([\d.]+) plain, ([\d.]+) with proof", r.stdout)
            pick = 1 if mode == "plain" else 2
            for key, m in (("solve", solve), ("whole", whole)):
                value = float(m.group(pick))
                best[(key, mode)] = min(best.get((key, mode), value), value)
            sizes = re.search(r"proofs: (.*)", r.stdout)
            if mode == "proof" and sizes:
                best["sizes"] = sizes.group(1)

    def change(key):
        return f"{best[(key, 'plain')]:,.1f} → {best[(key, 'proof')]:,.1f} µs " \
               f"({100 * (best[(key, 'proof')] / best[(key, 'plain')] - 1):+.1f} %)"

    print(f"Writing a text DRAT proof, uniqueness checks (count to 2) of expert-375 with cdcl "
          f"(`examples/proof_overhead`, {ROUNDS} rounds, the plain and the proof-writing mode each in "
          f"its own process, alternating, the fastest of three): the backend's solve time a puzzle "
          f"{change('solve')}; the whole count call, which also keeps a copy of the formula and "
          f"writes the files, {change('whole')}. Proofs: {best.get('sizes', '?')}.")
    print()

    rows = []
    for label, binary, out, command in counts:
        shutil.rmtree(out, ignore_errors=True)
        log(f"proofs: {show(command)}")
        r = run(command, timeout=1800)
        if r.code != 0:
            sys.exit(f"{show(command)} failed: {r.stderr.strip()[:300]}")
        proofs = sorted(out.glob("puzzle-*.drat"))
        sizes = [p.stat().st_size for p in proofs]
        checks, verified = [], 0
        if drat_trim:
            for proof in proofs:
                cnf = proof.with_suffix(".cnf")
                c = run([drat_trim, str(cnf), str(proof)], timeout=600)
                checks.append(c.wall)
                verified += "s VERIFIED" in c.stdout
        row = [label, "binary" if binary else "text", f"{r.wall:.2f} s",
               f"{statistics.mean(sizes) / 1024:,.1f} / {max(sizes) / 1024:,.1f} KiB"]
        if drat_trim:
            row += [f"{statistics.mean(checks):.2f} / {max(checks):.2f} s", f"{verified} of {len(proofs)}"]
        else:
            row += ["drat-trim not found", "–"]
        rows.append(row)
        shutil.rmtree(out, ignore_errors=True)
    print("`sudosat count --proof-dir` (one thread; the time includes writing each formula and "
          "proof), then drat-trim on each proof (wall time of the process, which spends about "
          "0.1–0.2 s starting up whatever the proof):")
    print()
    table(["puzzles", "DRAT", "count", "proof mean / max", "drat-trim mean / max", "verified"], rows,
          right=[2, 3, 4, 5])


if __name__ == "__main__":
    main()
