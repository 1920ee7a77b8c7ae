#!/usr/bin/env python3
"""docs/benchmarks/encoding.md, "Encoding sizes": variables and clauses of each encoding,
what the reduction (Kwon & Jain's V⁺/V⁻) removes, the at-most-one families on empty grids,
and the time to write the largest formulas.

Sizes are exact (`sudosat sizes`: closed forms, or a walk over the groups for the reduced
encodings), so they do not depend on the machine; the times do.

Environment: SUDOSAT_DATA (default benches/data), EMPTY_SIZES (default "9 16 25 36 64 81
100 144 225 400").
"""

import csv
import io
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import BIN, WORK, build, data, header, log, number, run, show, table  # noqa: E402

GRIDS = [f"large/sudoku-{n}-1.txt" for n in (4, 9, 16, 25, 64, 81, 100, 144, 225)] + [
    "9x9/minimal-2k.txt", "9x9/expert-375.txt"]
BASES = ["minimal", "extended", "augmented"]
EMPTY_SIZES = [int(n) for n in os.environ.get("EMPTY_SIZES", "9 16 25 36 64 81 100 144 225 400").split()]
FAMILIES = ["pairwise", "sequential", "commander", "product", "bimander", "binary"]


def sizes(command):
    r = run(command, timeout=600)
    if r.code != 0:
        sys.exit(f"{show(command)} failed: {r.stderr.strip()[:300]}")
    return list(csv.DictReader(io.StringIO(r.stdout)))


def main():
    build()
    encodings = ",".join(BASES + [b + "+reduced" for b in BASES])
    per_grid = [str(BIN), "sizes", "--summary", "--csv", "--encodings", encodings, *[str(data(g)) for g in GRIDS]]
    empties = []
    for n in EMPTY_SIZES:
        path = WORK / f"empty-{n}.txt"
        path.write_text((" ".join(["0"] * n) + "\n") * n)
        empties.append(path)
    families = [str(BIN), "sizes", "--summary", "--csv", "--encodings", "extended", "--amo", "all",
                *[str(p) for p in empties]]
    write_empty = [str(BIN), "encode", str(WORK / "empty-81.txt"), "--encoding", "extended", "--no-reduce", "-o",
                   "/dev/null"]
    write_reduced = [str(BIN), "encode", str(data("large/sudoku-225-1.txt")), "--reduce", "-o", "/dev/null"]
    header([show(per_grid), "# EMPTY-N.txt: N lines of N zeros", show(families).replace("target/bench/empty-", "EMPTY-"),
            show(write_empty).replace("target/bench/empty-", "EMPTY-"), show(write_reduced)])

    log("encoding: sizes per grid")
    rows_by = {}
    for row in sizes(per_grid):
        single = row["puzzle"] == "total" and "9x9/" not in row["file"]
        if single or (row["puzzle"] == "average" and "9x9/" in row["file"]):
            rows_by.setdefault(row["file"], {})[row["encoding"]] = row
    rows = []
    for g in GRIDS:
        by = rows_by[str(data(g))]
        name = Path(g).name + (" (mean)" if g.startswith("9x9/") else "")
        first = by["extended"]
        row = [name, first["side"], number(float(first["givens"])),
               f"{number(float(first['vars']))} → {number(float(by['extended+reduced']['vars']))}"]
        for b in BASES:
            full, red = float(by[b]["clauses"]), float(by[b + "+reduced"]["clauses"])
            row.append(f"{number(full)} → {number(red)} ({red / full:.4f})")
        rows.append(row)
    print("Variables and clauses of each encoding, unreduced → reduced (the ratio in brackets); "
          "the 9×9 sets as the mean over their puzzles:")
    print()
    table(["grid", "n", "givens", "variables (extended)"] + [f"clauses, {b}" for b in BASES], rows)

    log("encoding: families")
    lits = {}
    for row in sizes(families):
        if row["puzzle"] != "total":
            continue
        family = row["encoding"].split("/")[1] if "/" in row["encoding"] else "pairwise"
        lits[(int(row["side"]), family)] = int(row["literals"])
    rows = []
    for n in EMPTY_SIZES:
        values = [lits[(n, f)] for f in FAMILIES]
        best = min(range(len(FAMILIES)), key=lambda i: values[i])
        rows.append([str(n)] + [number(v) for v in values]
                    + [f"{FAMILIES[best]} {values[0] / values[best]:.2f}×"])
    print("Literals of the extended encoding of the empty n×n grid (unreduced) with each "
          "at-most-one family (`--amo`), and the smallest against pairwise:")
    print()
    table(["n"] + FAMILIES + ["smallest ÷ pairwise"], rows)

    rows = []
    for label, command in [("empty 81×81, extended, unreduced", write_empty),
                           ("`sudoku-225-1`, extended+reduced", write_reduced)]:
        log(f"encoding: {show(command)}")
        r = run(command, timeout=600)
        rows.append([label, f"{r.cpu:.2f} s", f"{r.wall:.2f} s", f"{r.peak_kib / 1024:,.0f} MiB"])
    print("Writing the largest formulas as DIMACS (to `/dev/null`; the encoder streams, so "
          "memory stays flat):")
    print()
    table(["formula", "CPU", "wall", "peak memory"], rows)


if __name__ == "__main__":
    main()
