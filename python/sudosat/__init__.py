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
from sudosat._isolate import isolating
from sudosat._pysat import SatSolver

# splr reads no stop flag: these run it in a child process that Ctrl-C kills.
solve = isolating("solve", solve, solver_at=1)
count = isolating("count", count, solver_at=2)
solve_many = isolating("solve_many", solve_many, solver_at=1)
sat = isolating("sat", sat, backend_at=1)

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
