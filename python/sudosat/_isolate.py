"""Runs a call whose solver cannot be stopped in a child process, so that Ctrl-C ends it.

splr's search reads no stop flag: on a thread of this process it would run on after
Ctrl-C. `solve`, `count`, `solve_many` and `sat` with the splr backend therefore run in a
child process (spawned: a fresh interpreter that imports sudosat), which Ctrl-C kills;
their answers come back pickled. Every other backend and solver stops on the flag the
module hands it and runs in this process.
"""

from __future__ import annotations

import multiprocessing
from typing import Any, Callable, Optional

from sudosat import _native

# Backends whose search no flag can stop.
UNSTOPPABLE = ("splr",)


def unstoppable(backend: Optional[str], solver: Optional[str] = None) -> bool:
    """Whether a call with this backend (or solver text, `sat:ENCODING:BACKEND`) would run
    a solver that cannot be stopped."""
    names = []
    if isinstance(backend, str):
        names.append(backend.split("[", 1)[0].split(":", 1)[0])
    elif isinstance(solver, str) and solver.count(":") >= 2:
        names.append(solver.rsplit(":", 1)[1].split("[", 1)[0])
    return any(name in UNSTOPPABLE for name in names)


def _call(name: str, args: tuple, kwargs: dict) -> Any:
    return getattr(_native, name)(*args, **kwargs)


def in_child(name: str, args: tuple, kwargs: dict) -> Any:
    """`sudosat._native.NAME(*args, **kwargs)` in a child process, killed by Ctrl-C."""
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        pending = pool.apply_async(_call, (name, args, kwargs))
        while True:
            try:
                return pending.get(timeout=0.05)
            except multiprocessing.TimeoutError:
                continue


def isolating(name: str, function: Callable, solver_at: Optional[int] = None,
              backend_at: Optional[int] = None) -> Callable:
    """`function` (the module's `name`), run in a child process when its backend cannot
    be stopped and its arguments can cross (no progress callable). `solver_at` and
    `backend_at` are the positions of the parameters `solver` and `backend`."""

    def given(args, kwargs, keyword, at):
        if keyword in kwargs:
            return kwargs[keyword]
        return args[at] if at is not None and len(args) > at else None

    def call(*args, **kwargs):
        solver = given(args, kwargs, "solver", solver_at)
        backend = given(args, kwargs, "backend", backend_at)
        if unstoppable(backend, solver) and kwargs.get("progress") is None:
            return in_child(name, args, kwargs)
        return function(*args, **kwargs)

    call.__name__ = function.__name__
    call.__qualname__ = function.__qualname__
    call.__doc__ = function.__doc__
    call.__wrapped__ = function
    return call
