"""Ctrl-C: a solve, a batch and a comparison stop on KeyboardInterrupt (here sent from a
thread, as the terminal's SIGINT arrives), leave no solver process or temporary directory,
and leave the module ready for the next call. A watchdog ends the test run should a call
never stop."""

import _thread
import faulthandler
import os
import shutil
import signal
import threading
import time
from pathlib import Path

import pytest

import sudosat
from conftest import FIXTURES, required
from test_solve import pigeons


@pytest.fixture(autouse=True)
def watchdog():
    """A call that does not stop would hang the run: end it with the stacks instead."""
    faulthandler.dump_traceback_later(120, exit=True)
    yield
    faulthandler.cancel_dump_traceback_later()


@pytest.fixture(autouse=True)
def sigint_raises():
    """These tests stand for a terminal's Ctrl-C. A run started in the background by a
    shell inherits SIGINT ignored, and Python then installs no handler and never raises
    KeyboardInterrupt: the tests put Python's own handler in place."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


def interrupted(call, after=0.5):
    """Runs `call` with a KeyboardInterrupt sent to this thread `after` seconds in; returns
    the exception, which the call must raise."""
    timer = threading.Timer(after, _thread.interrupt_main)
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt) as caught:
            call()
    finally:
        timer.cancel()
    return caught.value


def children():
    """The processes this one started that still run."""
    me = str(os.getpid())
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if fields[1] == me and fields[0] != "Z" and not tracker(entry):
            found.append(entry.name)
    return found


def tracker(entry):
    """Whether a process is multiprocessing's resource tracker, which a process pool (the
    child that runs splr, the pickling test's pool) starts once and keeps for the life of
    this process: not a solver."""
    try:
        return b"resource_tracker" in (entry / "cmdline").read_bytes()
    except OSError:
        return False


def test_a_long_solve_stops_and_the_solver_goes_on():
    solver = sudosat.Solver()
    # Counting every solution of the empty 9×9 grid would take longer than the universe.
    interrupted(lambda: solver.count(sudosat.Grid.empty(3), limit=0))
    assert solver.solve("1.3...1..4..2.4.").is_full
    interrupted(lambda: sudosat.count(sudosat.Grid.empty(3), limit=0, backend="dpll"))
    interrupted(lambda: sudosat.sat(pigeons(12)))


def test_a_batch_stops():
    hard = sudosat.Grid.read(FIXTURES / "expert-20.txt")
    # Ten thousand hard puzzles on the slowest complete path.
    batch = hard * 500
    for jobs in [1, 2]:
        interrupted(lambda: sudosat.solve_many(batch, "sat:minimal:dpll", jobs=jobs, progress=lambda *_: None))
    assert sudosat.solve_many(hard[:2], jobs=2) == sudosat.Grid.read(FIXTURES / "solutions/expert-20.txt")[:2]


def test_a_comparison_stops_with_the_runs_made():
    # Far more runs than a second holds on a fast machine (the comparison of 2,000 ended in
    # 0.9 s, before the interrupt): 40,000 puzzles, stopped after half a second.
    hard = sudosat.Grid.read(FIXTURES / "expert-20.txt") * 2000
    error = interrupted(lambda: sudosat.compare(hard, solvers="cdcl,dpll", encodings="minimal"), after=0.5)
    study = error.study
    assert isinstance(study, sudosat.Study) and study.interrupted
    assert 0 < len(study) < 2 * len(hard)
    assert {r["outcome"] for r in study.rows} <= {"solved", "stopped"}


def test_an_external_solver_is_killed_and_its_directory_removed(tmp_path, monkeypatch):
    cadical = shutil.which("cadical")
    if cadical is None:
        required("cadical")
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    hard = pigeons(13)
    interrupted(lambda: sudosat.sat(hard, "external:cadical -q"))
    assert children() == []
    assert list(tmp_path.iterdir()) == []
    # The next external solve runs.
    assert sudosat.sat(sudosat.Cnf.from_clauses([[1, 2], [-1]]), "external:cadical -q") == [-1, 2]


def threads():
    """The threads of this process."""
    return len(os.listdir("/proc/self/task"))


def no_thread_left(before):
    """Waits (up to 10 s) for the threads to come back to `before`; True when they do."""
    for _ in range(200):
        if threads() <= before:
            return True
        time.sleep(0.05)
    return False


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_classic_solvers_threads_stop_with_the_interrupt(jobs):
    before = threads()
    # Counting every 9×9 grid would take Dancing Links longer than the universe; a batch of
    # them keeps every worker busy.
    empty = sudosat.Grid.empty(3)
    interrupted(lambda: sudosat.count(empty, limit=0, solver="dlx"))
    assert no_thread_left(before)
    hard = sudosat.Grid.read(FIXTURES / "hard/gecode-25x25-p6.txt") * 4
    for solver in ["dlx", "backtrack"]:
        interrupted(lambda: sudosat.solve_many(hard, solver, jobs=jobs))
        assert no_thread_left(before), solver
    interrupted(lambda: sudosat.compare(hard, "dlx", jobs=jobs), after=0.5)
    assert no_thread_left(before)


def test_splr_runs_in_a_child_that_the_interrupt_ends():
    before = threads()
    # Pigeons in too few holes: splr searches far longer than the interrupt takes to come.
    interrupted(lambda: sudosat.sat(pigeons(12), "splr"), after=1.5)
    assert children() == []
    assert no_thread_left(before)
    # It answers as in process.
    assert sudosat.sat(sudosat.Cnf.from_clauses([[1, 2], [-1]]), "splr") == [-1, 2]
    assert sudosat.solve("1.3...1..4..2.4.", backend="splr").format("line").strip() == "1234431234212143"
