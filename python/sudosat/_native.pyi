"""Type stubs of sudosat's extension module (the `sudosat` package re-exports it)."""

import os
from typing import Any, Callable, Iterable, Iterator, Optional, Sequence, Union

__version__: str
COLUMNS: list[str]

StrPath = Union[str, os.PathLike[str]]
# A puzzle: a Grid, or the text of one puzzle.
GridLike = Union["Grid", str]
# Puzzles: a file (a PathLike, or a str naming an existing file), puzzle text (any other
# str), a Grid, or an iterable of Grids, texts and files.
Puzzles = Union[StrPath, "Grid", Iterable[Union["Grid", str, os.PathLike[str]]]]
# A formula: a Cnf, a PySAT CNF (anything with `clauses`, `nv`, `comments`), or clauses.
Clauses = Iterable[Iterable[int]]
# What a solve answers: the checked solution, None for no solution, or why there is none.
Answer = Optional[Union["Grid", "Timeout", "Stopped"]]
Progress = Union[bool, None, Callable[[int, int], Any]]

class Grid:
    """A Sudoku grid of any box size; rows, columns and digits numbered from 1."""

    def __init__(self, text: str, format: Optional[str] = None) -> None: ...
    @staticmethod
    def parse(text: str, format: Optional[str] = None) -> list[Grid]: ...
    @staticmethod
    def read(path: StrPath, format: Optional[str] = None) -> list[Grid]: ...
    @staticmethod
    def empty(box_size: int) -> Grid: ...
    @staticmethod
    def from_values(values: Sequence[int]) -> Grid: ...
    @property
    def side(self) -> int: ...
    @property
    def box_size(self) -> int: ...
    @property
    def num_givens(self) -> int: ...
    @property
    def givens(self) -> list[tuple[int, int, int]]: ...
    @property
    def values(self) -> list[int]: ...
    @property
    def rows(self) -> list[list[int]]: ...
    @property
    def is_full(self) -> bool: ...
    @property
    def file(self) -> Optional[str]: ...
    @property
    def line(self) -> Optional[int]: ...
    def value(self, row: int, column: int) -> int: ...
    def candidates(self, row: int, column: int) -> list[int]: ...
    def with_value(self, row: int, column: int, digit: int) -> Grid: ...
    def format(self, format: str = "line") -> str: ...
    def check(self, solution: Optional[GridLike] = None) -> list[str]: ...
    def is_valid(self, solution: Optional[GridLike] = None) -> bool: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class Cnf:
    """A CNF formula in DIMACS numbering; one of a puzzle knows its variable map."""

    @staticmethod
    def from_clauses(
        clauses: Iterable[Iterable[int]],
        nv: Optional[int] = None,
        comments: Optional[Sequence[str]] = None,
    ) -> Cnf: ...
    @staticmethod
    def from_pysat(formula: Union[Any, Clauses]) -> Cnf: ...
    @staticmethod
    def read(path: StrPath) -> Cnf: ...
    @property
    def nv(self) -> int: ...
    @property
    def num_clauses(self) -> int: ...
    @property
    def num_literals(self) -> int: ...
    @property
    def clauses(self) -> list[list[int]]: ...
    @property
    def encoding(self) -> Optional[str]: ...
    @property
    def puzzle(self) -> Optional[Grid]: ...
    @property
    def comments(self) -> list[str]: ...
    def __len__(self) -> int: ...
    def __iter__(self) -> Iterator[list[int]]: ...
    def clause(self, i: int) -> list[int]: ...
    def var(self, row: int, column: int, digit: int) -> Optional[int]: ...
    def fixed(self, row: int, column: int, digit: int) -> Optional[bool]: ...
    def cell(self, var: int) -> Optional[tuple[int, int, int]]: ...
    def decode(self, model: Optional[Sequence[int]]) -> Optional[Grid]: ...
    def to_dimacs(self) -> str: ...
    def write(self, path: StrPath) -> None: ...
    def to_pysat(self) -> Any: ...
    def __reduce__(self) -> tuple[Any, tuple[list[list[int]], int, list[str]]]: ...

class Timeout:
    """The answer of a solve that reached its time limit (false in a test)."""

    limit: Optional[float]
    message: str
    def __init__(self, limit: Optional[float], message: str = "") -> None: ...
    def __bool__(self) -> bool: ...
    def __eq__(self, other: object) -> bool: ...
    def __reduce__(self) -> tuple[type[Timeout], tuple[Optional[float], str]]: ...

class Stopped:
    """The answer of an incomplete solver that gave up (false in a test)."""

    reason: str
    def __init__(self, reason: str) -> None: ...
    def __bool__(self) -> bool: ...
    def __eq__(self, other: object) -> bool: ...
    def __reduce__(self) -> tuple[type[Stopped], tuple[str]]: ...

class Solver:
    """A grid-level solver kept across calls: the SAT path or a classic solver."""

    def __init__(
        self,
        solver: str = "sat",
        *,
        backend: Optional[str] = None,
        encoding: Optional[str] = None,
        timeout: Optional[float] = None,
        threads: Optional[int] = None,
        seed: Optional[int] = None,
        propagate: Optional[str] = None,
        root: Optional[str] = None,
        lookahead: Optional[str] = None,
        load: Optional[str] = None,
        max_iterations: Optional[int] = None,
    ) -> None: ...
    @property
    def spec(self) -> str: ...
    @property
    def label(self) -> str: ...
    @property
    def stats(self) -> Optional[dict[str, Union[int, float]]]: ...
    def solve(
        self, grid: GridLike, *, proof: Optional[StrPath] = None, binary_proof: bool = False
    ) -> Answer: ...
    def count(
        self,
        grid: GridLike,
        limit: int = 2,
        *,
        proof: Optional[StrPath] = None,
        binary_proof: bool = False,
    ) -> Union[int, Timeout]: ...

class Study:
    """The runs of a comparison, as `sudosat compare` makes them."""

    @property
    def rows(self) -> list[dict[str, Any]]: ...
    @property
    def solvers(self) -> list[str]: ...
    @property
    def puzzles(self) -> int: ...
    @property
    def interrupted(self) -> bool: ...
    @property
    def has_wrong_answer(self) -> bool: ...
    def __len__(self) -> int: ...
    def to_pandas(self) -> Any: ...
    def summary(self, *, markdown: bool = False, by: Optional[str] = None) -> str: ...
    def report(
        self,
        dir: StrPath,
        *,
        scatter: Optional[Sequence[tuple[str, str]]] = None,
        by: Optional[str] = None,
    ) -> None: ...
    def to_csv(self, path: StrPath) -> None: ...
    def to_json(self, path: StrPath, *, by: Optional[str] = None) -> None: ...

def encode(
    grid: GridLike,
    encoding: str = "extended",
    reduce: Optional[bool] = None,
    amo: Optional[str] = None,
) -> Cnf: ...
def solve(
    grid: GridLike,
    solver: str = "sat",
    *,
    backend: Optional[str] = None,
    encoding: Optional[str] = None,
    timeout: Optional[float] = None,
    threads: Optional[int] = None,
    seed: Optional[int] = None,
    propagate: Optional[str] = None,
    root: Optional[str] = None,
    lookahead: Optional[str] = None,
    load: Optional[str] = None,
    max_iterations: Optional[int] = None,
    proof: Optional[StrPath] = None,
    binary_proof: bool = False,
) -> Answer: ...
def count(
    grid: GridLike,
    limit: int = 2,
    solver: str = "sat",
    *,
    backend: Optional[str] = None,
    encoding: Optional[str] = None,
    timeout: Optional[float] = None,
    threads: Optional[int] = None,
    seed: Optional[int] = None,
    propagate: Optional[str] = None,
    root: Optional[str] = None,
    lookahead: Optional[str] = None,
    load: Optional[str] = None,
    max_iterations: Optional[int] = None,
    proof: Optional[StrPath] = None,
    binary_proof: bool = False,
) -> Union[int, Timeout]: ...
def solve_many(
    puzzles: Puzzles,
    solver: str = "sat",
    *,
    jobs: Optional[int] = None,
    progress: Progress = None,
    backend: Optional[str] = None,
    encoding: Optional[str] = None,
    timeout: Optional[float] = None,
    threads: Optional[int] = None,
    seed: Optional[int] = None,
    propagate: Optional[str] = None,
    root: Optional[str] = None,
    lookahead: Optional[str] = None,
    load: Optional[str] = None,
    max_iterations: Optional[int] = None,
) -> list[Answer]: ...
def sat(
    formula: Union[Cnf, StrPath, Any, Clauses],
    backend: str = "cdcl",
    *,
    assumptions: Optional[Sequence[int]] = None,
    timeout: Optional[float] = None,
    threads: Optional[int] = None,
    seed: Optional[int] = None,
    proof: Optional[StrPath] = None,
    binary_proof: bool = False,
) -> Optional[Union[list[int], Timeout]]: ...
def compare(
    puzzles: Puzzles,
    solvers: Optional[Union[str, Sequence[str]]] = None,
    *,
    encodings: Optional[Union[str, Sequence[str]]] = None,
    amo: Optional[Union[str, Sequence[str]]] = None,
    timeout: Optional[float] = None,
    repeat: int = 1,
    jobs: int = 1,
    seed: int = 0,
    vary_seed: bool = False,
    isomorphs: bool = False,
    root: Optional[str] = None,
    max_iterations: Optional[int] = None,
    limit: Optional[int] = None,
    progress: Progress = None,
    command: Optional[Sequence[str]] = None,
) -> Study: ...

def memory_budget() -> Optional[int]: ...
def set_memory_budget(bytes: Optional[int]) -> None: ...
def embedded_libraries() -> list[str]: ...
