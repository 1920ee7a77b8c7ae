"""encode → Cnf: the same DIMACS as `sudosat encode` for every format and encoding, the
variable map both ways, decoding and its checks, DIMACS files in and out."""

import pytest

import sudosat
from conftest import FIXTURES, solutions_of

BASES = ["minimal", "extended", "augmented"]
FAMILIES = ["pairwise", "sequential", "commander", "product", "bimander", "binary"]

# One puzzle in each format the reader detects (the first of each file).
PUZZLES = [
    "thesis-4x4.txt",  # grid, 4×4
    "minimal-1-line.txt",  # line
    "debian-fiendish.txt",  # block
    "rank3-20.csv",  # csv2
    "sudoku-16-1.txt",  # grid, 16×16
]


def first_puzzle_file(name, tmp_path):
    """A file holding only the first puzzle of fixture `name`, in its own format."""
    path = FIXTURES / name
    if len(sudosat.Grid.read(path)) == 1:
        return path
    first = sudosat.Grid.read(path)[0]
    single = tmp_path / name
    header = "puzzle\n" if name.endswith(".csv") else ""
    single.write_text(header + first.format("csv2" if header else "line"))
    return single


@pytest.mark.parametrize("name", PUZZLES)
@pytest.mark.parametrize("reduced", [False, True])
def test_every_encoding_writes_the_dimacs_of_the_cli(cli, tmp_path, name, reduced):
    path = first_puzzle_file(name, tmp_path)
    puzzle = sudosat.Grid.read(path)[0]
    for base in BASES:
        for family in FAMILIES:
            flags = ["--encoding", base, "--amo", family] + (["--reduce"] if reduced else [])
            expected = cli("encode", path, *flags).stdout
            cnf = sudosat.encode(puzzle, encoding=base, reduce=reduced, amo=family)
            assert cnf.to_dimacs() == expected, (name, flags)
            # The same encoding named in full.
            full = base + ("+reduced" if reduced else "") + ("" if family == "pairwise" else "/" + family)
            assert cnf.encoding == full
            assert sudosat.encode(puzzle, encoding=full).to_dimacs() == expected
            assert (cnf.nv, len(cnf)) == (int(expected.split("p cnf ")[1].split()[0]), int(expected.split("p cnf ")[1].split()[1]))


def test_clauses_are_the_dimacs_clauses():
    puzzle = sudosat.Grid.read(FIXTURES / "minimal-40.txt")[0]
    cnf = sudosat.encode(puzzle, encoding="extended+reduced")
    body = cnf.to_dimacs().split("p cnf")[1].splitlines()[1:]
    from_text = [[int(x) for x in line.split()[:-1]] for line in body]
    assert cnf.clauses == from_text
    assert list(cnf) == from_text
    assert cnf.clause(0) == from_text[0] and cnf.clause(-1) == from_text[-1]
    assert cnf.num_literals == sum(map(len, from_text))
    with pytest.raises(IndexError):
        cnf.clause(len(cnf))


@pytest.mark.parametrize("encoding", ["extended", "extended+reduced", "augmented/sequential"])
def test_the_variable_map_goes_both_ways(encoding):
    puzzle = sudosat.Grid.read(FIXTURES / "thesis-9x9.txt")[0]
    cnf = sudosat.encode(puzzle, encoding=encoding)
    n = puzzle.side
    seen = set()
    for r in range(1, n + 1):
        for c in range(1, n + 1):
            for v in range(1, n + 1):
                var = cnf.var(r, c, v)
                if var is None:
                    # Fixed by the reduction: true exactly for a given.
                    assert cnf.fixed(r, c, v) == (puzzle.value(r, c) == v)
                    continue
                assert cnf.fixed(r, c, v) is None
                assert cnf.cell(var) == (r, c, v)
                seen.add(var)
    cells = len(seen)
    assert seen == set(range(1, cells + 1))
    # Every variable after the cells' is auxiliary.
    assert all(cnf.cell(var) is None for var in range(cells + 1, cnf.nv + 1))
    if encoding == "extended":
        assert cnf.var(2, 3, 4) == (2 - 1) * 81 + (3 - 1) * 9 + 4
    for bad in [(0, 1, 1), (1, 10, 1), (1, 1, 10)]:
        with pytest.raises(ValueError):
            cnf.var(*bad)
    for bad in [0, -1, cnf.nv + 1]:
        with pytest.raises(ValueError):
            cnf.cell(bad)


def test_a_model_decodes_into_its_checked_grid():
    puzzle = sudosat.Grid.read(FIXTURES / "minimal-40.txt")[0]
    solution = solutions_of("minimal-40.txt")[0]
    for encoding in ["minimal", "extended+reduced", "augmented/binary"]:
        cnf = sudosat.encode(puzzle, encoding=encoding)
        model = sudosat.sat(cnf)
        assert len(model) == cnf.nv
        assert cnf.decode(model) == solution
        # Literals above the formula's variables are ignored; None is PySAT's UNSAT.
        assert cnf.decode(model + [cnf.nv + 5]) == solution
        assert cnf.decode(None) is None


def test_a_wrong_model_is_named():
    puzzle = sudosat.Grid.read(FIXTURES / "minimal-40.txt")[0]
    cnf = sudosat.encode(puzzle)
    model = sudosat.sat(cnf)
    # Every variable false: no cell has a value.
    with pytest.raises(ValueError, match="not a solution of the puzzle: cell r1c1 has no value"):
        cnf.decode([-v for v in range(1, cnf.nv + 1)])
    # Another digit in a given's cell breaks the given.
    r, c, v = puzzle.givens[0]
    other = v % 9 + 1
    swapped = [lit for lit in model if abs(lit) not in (cnf.var(r, c, v), cnf.var(r, c, other))]
    swapped += [-cnf.var(r, c, v), cnf.var(r, c, other)]
    with pytest.raises(ValueError, match="not a solution of the puzzle"):
        cnf.decode(swapped)
    with pytest.raises(ValueError, match="0"):
        cnf.decode([0])
    # A model of a formula with auxiliary variables is checked against every clause.
    aux = sudosat.encode(puzzle, encoding="extended/sequential")
    good = sudosat.sat(aux)
    cells = max(v for v in range(1, aux.nv + 1) if aux.cell(v) is not None)
    flipped = [lit if abs(lit) <= cells else -lit for lit in good]
    with pytest.raises(ValueError, match="a wrong model: it falsifies clause"):
        aux.decode(flipped)


def test_dimacs_files_round_trip(cli, tmp_path):
    puzzle = sudosat.Grid.read(FIXTURES / "expert-20.txt")[3]
    cnf = sudosat.encode(puzzle, encoding="minimal", reduce=True)
    for name in ["p.cnf", "p.cnf.xz", "p.cnf.gz"]:
        cnf.write(tmp_path / name)
        back = sudosat.Cnf.read(tmp_path / name)
        assert back.to_dimacs() == cnf.to_dimacs()
        assert back.puzzle == puzzle and back.encoding == "minimal+reduced"
    # The command line decodes a model of the file written here.
    model = sudosat.sat(cnf)
    (tmp_path / "p.model").write_text("s SATISFIABLE\nv " + " ".join(map(str, model)) + " 0\n")
    decoded = cli("decode", "--cnf", tmp_path / "p.cnf", tmp_path / "p.model").stdout.strip()
    assert decoded == str(cnf.decode(model))
    # A plain formula describes no puzzle.
    (tmp_path / "plain.cnf").write_text("p cnf 3 2\n1 -2 0\n2 3 0\n")
    plain = sudosat.Cnf.read(tmp_path / "plain.cnf")
    assert plain.puzzle is None and plain.encoding is None and plain.clauses == [[1, -2], [2, 3]]
    with pytest.raises(ValueError, match="describes no puzzle"):
        plain.decode([1, 2, 3])
    (tmp_path / "bad.cnf").write_text("p cnf 3 1\n1 x 0\n")
    with pytest.raises(ValueError, match=r"bad\.cnf:2"):
        sudosat.Cnf.read(tmp_path / "bad.cnf")


def test_from_clauses_checks_its_literals():
    cnf = sudosat.Cnf.from_clauses([[1, -3], [2]], nv=5)
    assert (cnf.nv, cnf.clauses) == (5, [[1, -3], [2]])
    with pytest.raises(ValueError, match="clause 2"):
        sudosat.Cnf.from_clauses([[1], [0]])
    with pytest.raises(TypeError):
        sudosat.Cnf.from_clauses([[1, "a"]])


def test_bad_encodings_are_value_errors_with_the_names():
    puzzle = "1.3...1..4..2.4."
    with pytest.raises(ValueError, match="unknown encoding `tiny`"):
        sudosat.encode(puzzle, encoding="tiny")
    with pytest.raises(ValueError, match="unknown at-most-one family `ladder`"):
        sudosat.encode(puzzle, amo="ladder")


def test_a_large_grid_encodes_without_its_clauses_in_python():
    # An empty 49×49 grid: 5.6 million clauses, held by the library until asked for.
    cnf = sudosat.encode(sudosat.Grid.empty(7), encoding="minimal")
    assert cnf.nv == 49**3
    assert len(cnf) == 49 * 49 + 3 * 49 * 49 * (49 * 48 // 2)
    assert cnf.clause(0) == list(range(1, 50))
