#!/usr/bin/env python3
"""Writes isomorphic copies of Sudoku puzzles: the same puzzle with its digits relabelled,
its bands, stacks, rows within a band and columns within a stack permuted, and transposed
half the time. Isomorphs are exactly as hard for a solver that reasons, but a CDCL solver
takes another path through each, so timing a puzzle and its isomorphs shows the spread of
its search instead of one draw from it (scripts/bench-hard.sh).

Usage: isomorphs.py FILE COPIES SEED
  FILE    line format (one puzzle per line, '.' or '0' blank, up to 25x25 with 1-9 then A-P)
          or one grid of whitespace-separated numbers ('.' or 0 blank) per file
  COPIES  puzzles written per input puzzle, the original first
  SEED    random seed (same seed, same copies)
Writes line format for line input, grid format for grid input, on standard output.
"""
import random
import sys

SYMBOLS = "123456789ABCDEFGHIJKLMNOP"


def permutation(rng, b):
    bands = list(range(b))
    rng.shuffle(bands)
    order = []
    for band in bands:
        inner = list(range(b))
        rng.shuffle(inner)
        order += [band * b + i for i in inner]
    return order


def copies(cells, n, count, rng):
    """cells: n*n digits (0 blank); yields `count` digit lists, the original first."""
    b = round(n ** 0.5)
    yield cells
    for _ in range(count - 1):
        relabel = list(range(1, n + 1))
        rng.shuffle(relabel)
        rows, cols = permutation(rng, b), permutation(rng, b)
        transpose = rng.random() < 0.5
        out = []
        for r in range(n):
            for c in range(n):
                rr, cc = rows[r], cols[c]
                if transpose:
                    rr, cc = cc, rr
                d = cells[rr * n + cc]
                out.append(relabel[d - 1] if d else 0)
        yield out


def main():
    path, count, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    rng = random.Random(seed)
    lines = [l.strip() for l in open(path) if l.strip() and l.strip()[0] not in "#%"]
    if len(lines) > 0 and len(lines[0].split()) == 1:
        for line in lines:
            n = round(len(line) ** 0.5)
            cells = [0 if ch in ".0" else SYMBOLS.index(ch) + 1 for ch in line]
            for copy in copies(cells, n, count, rng):
                print("".join(SYMBOLS[d - 1] if d else "." for d in copy))
    else:
        n = len(lines)
        cells = [0 if t in (".", "0") else int(t) for l in lines for t in l.split()]
        for k, copy in enumerate(copies(cells, n, count, rng)):
            if k:
                print()
            for r in range(n):
                print(" ".join(str(d) if d else "." for d in copy[r * n:(r + 1) * n]))


if __name__ == "__main__":
    main()
