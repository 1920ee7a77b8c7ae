"""Bad arguments and limits: every wrong type or value names its parameter, a missing file
is a FileNotFoundError naming the user's path, a write error names the user's path, and a
formula over the memory budget is a MemoryError before anything is built."""

import pickle

import pytest

import sudosat
from conftest import FIXTURES

PUZZLE = "1.3...1..4..2.4."


@pytest.mark.parametrize(
    "call,name",
    [
        (lambda: sudosat.Grid.empty(-1), "box_size"),
        (lambda: sudosat.count(PUZZLE, limit=-1), "limit"),
        (lambda: sudosat.solve(PUZZLE, threads=-1), "threads"),
        (lambda: sudosat.solve(PUZZLE, seed=-1), "seed"),
        (lambda: sudosat.solve_many([PUZZLE], jobs=-1), "jobs"),
        (lambda: sudosat.Solver("dlx", max_iterations=-5), "max_iterations"),
        (lambda: sudosat.sat([[1]], seed=-2), "seed"),
        (lambda: sudosat.compare([PUZZLE], "dlx", repeat=-1), "repeat"),
        (lambda: sudosat.compare([PUZZLE], "dlx", limit=-1), "limit"),
        (lambda: sudosat.Grid(PUZZLE).value(-1, 1), "row"),
        (lambda: sudosat.Grid(PUZZLE).with_value(1, 1, -3), "digit"),
        (lambda: sudosat.Grid.from_values([1, 0, -1] + [0] * 13), "values[2]"),
        (lambda: sudosat.encode(PUZZLE).var(1, -1, 1), "column"),
        (lambda: sudosat.Cnf.from_clauses([[1]], nv=-1), "nv"),
        (lambda: sudosat.set_memory_budget(-1), "bytes"),
    ],
)
def test_a_negative_number_is_a_value_error_naming_its_parameter(call, name):
    with pytest.raises(ValueError) as caught:
        call()
    assert str(caught.value).startswith(f"{name} must be 0 or more, not -"), caught.value


def test_a_number_too_large_or_not_a_number_names_its_parameter():
    with pytest.raises(ValueError, match="^seed must be at most 18446744073709551615, not 18446744073709551616"):
        sudosat.solve(PUZZLE, seed=2**64)
    with pytest.raises(TypeError, match="^threads must be an integer, not str"):
        sudosat.solve(PUZZLE, threads="2")
    with pytest.raises(TypeError, match="^box_size must be an integer, not float"):
        sudosat.Grid.empty(3.0)


def test_a_missing_file_is_file_not_found_naming_it(tmp_path):
    missing = tmp_path / "nonexistent.txt"
    for call in [
        lambda: sudosat.Grid.read(missing),
        lambda: sudosat.Cnf.read(missing),
        lambda: sudosat.sat(missing),
        lambda: sudosat.solve_many(missing),
        lambda: sudosat.solve_many(str(missing)),
        lambda: sudosat.compare(missing, "dlx"),
    ]:
        with pytest.raises(FileNotFoundError) as caught:
            call()
        assert caught.value.filename == str(missing)


def test_a_write_error_names_the_users_path_not_a_temporary_file(tmp_path):
    target = tmp_path / "no-such-dir" / "out.cnf"
    cnf = sudosat.encode(PUZZLE)
    with pytest.raises(FileNotFoundError) as caught:
        cnf.write(target)
    assert caught.value.filename == str(target)
    assert ".sudosat-" not in str(caught.value)
    proof = tmp_path / "no-such-dir" / "p.drat"
    with pytest.raises(FileNotFoundError) as caught:
        sudosat.solve("11..............", proof=proof)
    assert caught.value.filename == str(proof)


def test_nv_below_the_clauses_variables_is_refused():
    with pytest.raises(ValueError, match="nv=2, but the clauses use variable 5"):
        sudosat.Cnf.from_clauses([[5]], nv=2)
    assert sudosat.Cnf.from_clauses([[5]], nv=7).nv == 7


def test_timeout_stopped_and_cnf_pickle():
    timeout = sudosat.Timeout(0.01, "solver `dlx` timed out after 10ms")
    back = pickle.loads(pickle.dumps(timeout))
    assert isinstance(back, sudosat.Timeout) and back == timeout and back.limit == 0.01
    stopped = sudosat.Stopped("work cap")
    assert pickle.loads(pickle.dumps(stopped)) == stopped
    cnf = sudosat.encode(sudosat.Grid.read(FIXTURES / "expert-20.txt")[0], reduce=True)
    again = pickle.loads(pickle.dumps(cnf))
    assert again.to_dimacs() == cnf.to_dimacs()
    assert again.puzzle == cnf.puzzle and again.encoding == cnf.encoding
    plain = sudosat.Cnf.from_clauses([[1, -3]], nv=4)
    assert pickle.loads(pickle.dumps(plain)).nv == 4


def pool_solve(puzzle):
    return sudosat.solve(puzzle, "dlx", timeout=0.05)


def test_a_process_pool_hands_every_answer_back():
    import multiprocessing

    hard = sudosat.Grid.empty(5)
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        answers = pool.map(pool_solve, [PUZZLE, "11..............", hard.format("grid")])
    assert str(answers[0]) == "1234431234212143"
    assert answers[1] is None
    assert isinstance(answers[2], (sudosat.Timeout, sudosat.Grid))


class TestMemoryBudget:
    """The guard: a budget the user sets, checked before any formula is built."""

    @pytest.fixture(autouse=True)
    def budget(self):
        sudosat.set_memory_budget(64 << 20)
        yield
        sudosat.set_memory_budget(None)

    def test_the_budget_reads_back_and_resets(self):
        assert sudosat.memory_budget() == 64 << 20
        sudosat.set_memory_budget(None)
        default = sudosat.memory_budget()
        assert default is None or default > 0

    def test_encode_over_the_budget_is_a_memory_error_at_once(self):
        with pytest.raises(MemoryError, match="400×400 .* over the memory budget of 64 MiB"):
            sudosat.encode(sudosat.Grid.empty(20))
        with pytest.raises(MemoryError, match="set_memory_budget"):
            sudosat.solve(sudosat.Grid.empty(20))
        # Within it, as before.
        assert len(sudosat.encode(sudosat.Grid.empty(3))) == 11988

    def test_a_batch_checks_each_puzzle_against_the_budget_of_the_call(self):
        # Read once for the call, the budget still stops the puzzle over it, on one
        # thread and on two.
        for jobs in (1, 2):
            with pytest.raises(MemoryError, match="over the memory budget of 64 MiB"):
                sudosat.solve_many([sudosat.Grid.empty(3), sudosat.Grid.empty(20)], jobs=jobs)
        answers = sudosat.solve_many([sudosat.Grid.empty(3)] * 3, jobs=2)
        assert [sudosat.Grid.empty(3).is_valid(a) for a in answers] == [True] * 3

    def test_python_objects_of_a_formula_are_checked_too(self):
        sudosat.set_memory_budget(None)
        cnf = sudosat.encode(sudosat.Grid.empty(5), encoding="minimal")
        sudosat.set_memory_budget(1 << 20)
        for call in [lambda: cnf.clauses, cnf.to_dimacs, cnf.to_pysat, lambda: sudosat.sat(cnf)]:
            with pytest.raises(MemoryError, match="over the memory budget of 1 MiB"):
                call()
        # The clauses stream one at a time still.
        assert len(next(iter(cnf))) > 0
