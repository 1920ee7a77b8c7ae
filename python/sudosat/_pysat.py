"""A SAT solver with PySAT's interface over sudosat's backends, for code written for
``pysat.solvers.Solver``: PySAT's ``Solver(name=...)`` takes only the solvers PySAT
builds, so sudosat's cannot be named there; this class has the same methods instead.

Each ``solve`` hands every clause to the backend anew (``sudosat.sat``): simple and
exact, but not incremental, so a loop of many small solves on one large formula is
better served by PySAT's own solvers (pass them a ``Cnf`` as ``bootstrap_with``).
"""

from __future__ import annotations

from typing import Iterable, List, Optional

from sudosat._native import Cnf, Timeout, sat


class SatSolver:
    """PySAT's ``Solver`` methods over a sudosat backend (``cdcl``, ``cadical``,
    ``varisat``, ``external:kissat -q`` …, as ``sat`` takes them).

    >>> with SatSolver("cadical", bootstrap_with=[[1, 2], [-1]]) as s:
    ...     s.solve(), s.get_model()
    (True, [-1, 2])
    >>> s = SatSolver(bootstrap_with=[[1, 2], [-1, 2]])
    >>> s.solve(assumptions=[-2]), s.get_core(), s.solve(), s.get_model()[1]
    (False, [-2], True, 2)
    """

    def __init__(
        self,
        backend: str = "cdcl",
        bootstrap_with: Optional[Iterable[Iterable[int]]] = None,
        *,
        timeout: Optional[float] = None,
        threads: Optional[int] = None,
        seed: Optional[int] = None,
    ) -> None:
        self.backend = backend
        self._options = {"timeout": timeout, "threads": threads, "seed": seed}
        self._clauses: List[List[int]] = []
        self._nv = 0
        self._model: Optional[List[int]] = None
        self._core: Optional[List[int]] = None
        self._status: Optional[bool] = None
        if bootstrap_with is not None:
            self.append_formula(bootstrap_with)

    def add_clause(self, clause: Iterable[int], no_return: bool = True) -> Optional[bool]:
        """Adds one clause (DIMACS literals)."""
        lits = [int(lit) for lit in clause]
        self._clauses.append(lits)
        self._nv = max([self._nv] + [abs(lit) for lit in lits])
        return None if no_return else True

    def append_formula(self, formula, no_return: bool = True) -> Optional[bool]:
        """Adds every clause of a ``Cnf``, a PySAT ``CNF`` or a list of clauses."""
        clauses = getattr(formula, "clauses", formula)
        for clause in clauses:
            self.add_clause(clause)
        nv = getattr(formula, "nv", None)
        if isinstance(nv, int):
            self._nv = max(self._nv, nv)
        return None if no_return else True

    def solve(self, assumptions: Iterable[int] = ()) -> Optional[bool]:
        """True (a model), False (none under the assumptions), None at the time limit."""
        assumptions = [int(lit) for lit in assumptions]
        for lit in assumptions:
            self._nv = max(self._nv, abs(lit))
        formula = Cnf.from_clauses(self._clauses, nv=self._nv)
        answer = sat(formula, self.backend, assumptions=assumptions or None, **self._options)
        self._model, self._core = None, None
        if isinstance(answer, Timeout):
            self._status = None
        elif answer is None:
            self._status = False
            # Every assumption together is a core (not a minimal one).
            self._core = assumptions
        else:
            self._status = True
            self._model = answer
        return self._status

    def get_model(self) -> Optional[List[int]]:
        """The model of the last solve (signed literals, one per variable), or None."""
        return self._model

    def get_core(self) -> Optional[List[int]]:
        """After a False answer under assumptions: assumptions that cannot all hold."""
        return self._core

    def get_status(self) -> Optional[bool]:
        """The answer of the last solve."""
        return self._status

    def nof_vars(self) -> int:
        """Number of variables."""
        return self._nv

    def nof_clauses(self) -> int:
        """Number of clauses."""
        return len(self._clauses)

    def delete(self) -> None:
        """Forgets the clauses (PySAT frees its solver here)."""
        self._clauses = []

    def __enter__(self) -> "SatSolver":
        return self

    def __exit__(self, *exc) -> None:
        self.delete()
