"""Sudoku of any size as SAT: parse, encode to CNF, solve with built-in, embedded or
external SAT solvers, decode and check, compare solvers and encodings.

A thin layer over the Rust library of the same name: every function calls what the
``sudosat`` command line calls, and says what it says when the input is wrong
(``ValueError`` with file, line and column). "No solution" is ``None``, a time limit is a
``Timeout`` answer; Ctrl-C stops a long call (``KeyboardInterrupt``).

>>> import sudosat
>>> puzzle = sudosat.Grid("1.3...1..4..2.4.")
>>> print(sudosat.solve(puzzle))
1234431234212143
>>> cnf = sudosat.encode(puzzle)
>>> cnf.nv, len(cnf)
(64, 454)

The guide: docs/python.md in the repository.
"""

from sudosat._native import (
    COLUMNS,
    Cnf,
    Grid,
    Solver,
    Stopped,
    Study,
    Timeout,
    __version__,
    compare,
    count,
    embedded_libraries,
    encode,
    memory_budget,
    sat,
    set_memory_budget,
    solve,
    solve_many,
)
from sudosat._pysat import SatSolver

__all__ = [
    "COLUMNS",
    "Cnf",
    "Grid",
    "SatSolver",
    "Solver",
    "Stopped",
    "Study",
    "Timeout",
    "__version__",
    "compare",
    "count",
    "embedded_libraries",
    "encode",
    "memory_budget",
    "sat",
    "set_memory_budget",
    "solve",
    "solve_many",
]
