#!/usr/bin/env python3
"""Writes tests/fixtures/solutions/<fixture> with the known solution of every puzzle fixture.

Independent of sudosat on purpose: its own tiny readers for the fixture formats, an
extended CNF encoding, /usr/bin/minisat to solve, a blocking clause to prove uniqueness,
and a rule check of every solution before it is written (line format, 1-9 then A-Z).
"""
import itertools
import math
import os
import subprocess
import sys
import tempfile

FIXTURES = os.path.join(os.path.dirname(__file__), "..", "tests", "fixtures")
SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def read_fixture(name):
    text = open(os.path.join(FIXTURES, name), encoding="utf-8").read()
    lines = [l.rstrip("\r") for l in text.split("\n")]
    if name.endswith(".csv"):
        rows = [l for l in lines[1:] if l.strip()]
        return [[int(r[i:i + 2]) for i in range(0, len(r), 2)] for r in rows]
    if name.startswith("debian"):
        cells = []
        for l in lines:
            if l.startswith("%") or l.startswith("-") or not l.strip():
                continue
            cells += [0 if ch == "." else int(ch) for ch in l if ch not in " |"]
        return [cells]
    if name.startswith(("sudoku-", "thesis-4x4")):
        return [[int(t) for t in text.split()]]
    return [[0 if ch in ".0" else SYMBOLS.index(ch) + 1 for ch in l.strip()]
            for l in lines if l.strip() and not l.startswith("#")]


def units(n, b):
    for r in range(n):
        yield [r * n + c for c in range(n)]
    for c in range(n):
        yield [r * n + c for r in range(n)]
    for br, bc in itertools.product(range(b), repeat=2):
        yield [(br * b + i) * n + bc * b + j for i in range(b) for j in range(b)]


def clauses(cells, n, b):
    var = lambda i, v: i * n + v  # i 0-based cell, v 1-based digit
    for i in range(n * n):
        yield [var(i, v) for v in range(1, n + 1)]
        for v, w in itertools.combinations(range(1, n + 1), 2):
            yield [-var(i, v), -var(i, w)]
    for u in units(n, b):
        for v in range(1, n + 1):
            yield [var(i, v) for i in u]
            for i, j in itertools.combinations(u, 2):
                yield [-var(i, v), -var(j, v)]
    for i, v in enumerate(cells):
        if v:
            yield [var(i, v)]


def minisat(cls, nvars):
    with tempfile.TemporaryDirectory() as d:
        cnf, out = os.path.join(d, "f.cnf"), os.path.join(d, "f.out")
        with open(cnf, "w") as f:
            f.write(f"p cnf {nvars} {len(cls)}\n")
            f.writelines(" ".join(map(str, c)) + " 0\n" for c in cls)
        subprocess.run(["minisat", cnf, out], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        words = open(out).read().split()
    if words[0] != "SAT":
        return None
    return [int(w) for w in words[1:] if int(w) > 0]


def solve(cells):
    n = math.isqrt(len(cells))
    b = math.isqrt(n)
    cls = list(clauses(cells, n, b))
    model = minisat(cls, n * n * n)
    assert model is not None, "unsolvable fixture"
    sol = [0] * (n * n)
    for lit in model:
        sol[(lit - 1) // n] = (lit - 1) % n + 1
    assert minisat(cls + [[-l for l in model]], n * n * n) is None, "not unique"
    assert all(g in (0, s) for g, s in zip(cells, sol)), "givens changed"
    for u in units(n, b):
        assert sorted(sol[i] for i in u) == list(range(1, n + 1)), "rule broken"
    return "".join(SYMBOLS[v - 1] for v in sol)


def main():
    out_dir = os.path.join(FIXTURES, "solutions")
    os.makedirs(out_dir, exist_ok=True)
    names = sys.argv[1:] or sorted(
        f for f in os.listdir(FIXTURES) if f.endswith((".txt", ".csv"))
    )
    for name in names:
        sols = [solve(p) for p in read_fixture(name)]
        with open(os.path.join(out_dir, name), "w") as f:
            f.writelines(s + "\n" for s in sols)
        print(f"{name}: {len(sols)} solutions")


if __name__ == "__main__":
    main()
