"""PySAT interop: encode here, solve with PySAT's CaDiCaL and Glucose, decode and check
here, on the shipped 9×9 and 16×16 puzzles; formulas back from PySAT."""

import pytest

import sudosat
from conftest import FIXTURES, assert_solves, solutions_of

pysat_solvers = pytest.importorskip("pysat.solvers")

PUZZLES = [
    ("minimal-40.txt", 5),
    ("expert-20.txt", 5),
    ("thesis-9x9.txt", 9),
    ("sudoku-16-1.txt", 1),
    ("rank4-2.csv", 2),
]


@pytest.mark.parametrize("name,count", PUZZLES)
@pytest.mark.parametrize("solver", ["cadical153", "glucose4"])
@pytest.mark.parametrize("encoding", ["extended", "minimal+reduced", "extended+reduced/commander"])
def test_a_round_trip_through_pysat_solves_every_puzzle(name, count, solver, encoding):
    puzzles = sudosat.Grid.read(FIXTURES / name)[:count]
    known = solutions_of(name)[:count]
    for puzzle, solution in zip(puzzles, known):
        cnf = sudosat.encode(puzzle, encoding=encoding)
        formula = cnf.to_pysat()
        assert formula.nv == cnf.nv and formula.clauses == cnf.clauses
        with pysat_solvers.Solver(name=solver, bootstrap_with=formula) as s:
            assert s.solve()
            answer = cnf.decode(s.get_model())
            assert_solves(puzzle, answer)
            assert answer == solution
            # Unique: blocking the solution's cell literals leaves no model.
            cells = [v for v in s.get_model() if v > 0 and cnf.cell(v) is not None]
            s.add_clause([-v for v in cells])
            assert not s.solve()
            assert cnf.decode(s.get_model()) is None


def test_a_formula_from_pysat_keeps_its_puzzle():
    puzzle = sudosat.Grid.read(FIXTURES / "expert-20.txt")[0]
    cnf = sudosat.encode(puzzle, reduce=True)
    formula = cnf.to_pysat()
    assert formula.comments[0] == "c sudosat 0.1.0 - Sudoku as SAT"
    back = sudosat.Cnf.from_pysat(formula)
    assert back.puzzle == puzzle and back.encoding == "extended+reduced"
    assert back.to_dimacs() == cnf.to_dimacs()
    # Clauses added on PySAT's side come back, and the models still decode.
    formula.append([cnf.var(1, 2, 1) or 1, -(cnf.var(1, 2, 1) or 1)])
    more = sudosat.Cnf.from_pysat(formula)
    assert len(more) == len(cnf) + 1
    assert more.decode(sudosat.sat(more)) == solutions_of("expert-20.txt")[0]
    # A formula made in PySAT alone is plain.
    from pysat.formula import CNF

    plain = sudosat.Cnf.from_pysat(CNF(from_clauses=[[1, 2], [-1]]))
    assert plain.puzzle is None and sudosat.sat(plain) == [-1, 2]


def test_pysat_formulas_and_clause_lists_are_taken_everywhere():
    from pysat.formula import CNF

    formula = CNF(from_clauses=[[1, 2], [-1, 2], [-2, 3]])
    assert sudosat.sat(formula) == [1, 2, 3]
    assert sudosat.sat([[1, 2], [-1]]) == [-1, 2]
    assert sudosat.Cnf.from_pysat([[1, 2], [-1]]).clauses == [[1, 2], [-1]]
    assert sudosat.Cnf.from_pysat(formula).nv == 3
    with pytest.raises(TypeError, match="formula must be"):
        sudosat.sat(3)


@pytest.mark.parametrize("backend", ["cdcl", "cadical"])
def test_a_cnf_bootstraps_a_pysat_solver_and_sat_solver_answers_as_pysat_does(backend):
    puzzle = sudosat.Grid.read(FIXTURES / "expert-20.txt")[0]
    cnf = sudosat.encode(puzzle)
    with pysat_solvers.Solver(name="cadical195", bootstrap_with=cnf) as theirs, sudosat.SatSolver(
        backend, bootstrap_with=cnf
    ) as ours:
        assert theirs.solve() and ours.solve()
        assert cnf.decode(theirs.get_model()) == cnf.decode(ours.get_model()) == solutions_of("expert-20.txt")[0]
        assert ours.nof_vars() == cnf.nv and ours.nof_clauses() == len(cnf)
        # Under an assumption that contradicts the solution: no model, and a core.
        wrong = cnf.var(1, 1, solutions_of("expert-20.txt")[0].value(1, 1) % 9 + 1)
        assert theirs.solve(assumptions=[wrong]) is False
        assert ours.solve(assumptions=[wrong]) is False and ours.get_core() == [wrong]
        assert ours.get_model() is None
        # Blocking the solution: unique, so no model.
        block = [-lit for lit in theirs.get_model() if lit > 0 and cnf.cell(lit)] if theirs.solve() else []
        ours.add_clause(block)
        assert ours.solve() is False
