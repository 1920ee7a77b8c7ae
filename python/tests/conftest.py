"""Shared fixtures of the Python tests: the repository's root (every test runs there, so
paths read as in the guide), the shipped puzzles and their known solutions, and the
`sudosat` binary the answers are compared with."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

import sudosat

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path("tests/fixtures")


@pytest.fixture(autouse=True)
def at_the_root(monkeypatch):
    """Every test runs at the top of the repository, as a reader of the guide does."""
    monkeypatch.chdir(ROOT)


def required(what):
    """Skips a test whose tool is missing, or fails it when CI requires every tool."""
    if os.environ.get("SUDOSAT_REQUIRE_EXTERNAL") == "1":
        pytest.fail(f"{what} is missing and SUDOSAT_REQUIRE_EXTERNAL=1")
    pytest.skip(f"{what} is missing")


def find_binary():
    """The command line to compare with: $SUDOSAT_BIN, the workspace's build, or PATH."""
    named = os.environ.get("SUDOSAT_BIN")
    if named:
        return named
    for profile in ("release", "debug"):
        path = ROOT / "target" / profile / "sudosat"
        if path.is_file():
            return str(path)
    return shutil.which("sudosat")


@pytest.fixture(scope="module")
def cli():
    """Runs the `sudosat` binary at the root: cli(*args) → CompletedProcess (text)."""
    binary = find_binary()
    if binary is None:
        required("the sudosat binary (cargo build, or SUDOSAT_BIN)")

    def run(*args, check=True):
        return subprocess.run(
            [binary, *map(str, args)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=check,
        )

    return run


def solutions_of(name):
    """The known solutions of fixture `name`, one Grid per puzzle, in order."""
    return sudosat.Grid.read(FIXTURES / "solutions" / name)


def assert_solves(puzzle, answer):
    """`answer` is a full grid that keeps the rules and `puzzle`'s givens."""
    assert isinstance(answer, sudosat.Grid), answer
    assert answer.is_full
    assert puzzle.check(answer) == []
    for r, c, v in puzzle.givens:
        assert answer.value(r, c) == v
