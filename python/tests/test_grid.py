"""Grid: every format the command line reads, detected; errors as the command line says
them; the writers; checks."""

import pickle

import pytest

import sudosat
from conftest import FIXTURES, solutions_of

# Fixtures in each format the reader detects: (file, format, puzzles).
FORMATS = [
    ("minimal-40.txt", "line", 40),
    ("expert-20.txt", "line", 20),
    ("thesis-4x4.txt", "grid", 1),
    ("sudoku-16-1.txt", "grid", 1),
    ("sudoku-25-1.txt", "grid", 1),
    ("debian-medium.txt", "block", 1),
    ("rank3-20.csv", "csv2", 20),
    ("rank4-2.csv", "csv2", 2),
]


@pytest.mark.parametrize("name,format,count", FORMATS)
def test_every_format_reads_as_the_cli_reads_it(cli, name, format, count):
    path = FIXTURES / name
    grids = sudosat.Grid.read(path)
    assert len(grids) == count
    # Detected or named, the same puzzles; and the same as the CLI's in the grid format.
    assert sudosat.Grid.read(path, format=format) == grids
    expected = cli("convert", path, "--to", "grid").stdout.split("\n\n")
    assert [g.format("grid") for g in grids] == [e.rstrip("\n") + "\n" for e in expected]
    # Each knows where it starts.
    assert all(g.file == str(path) for g in grids)
    assert [g.line for g in grids] == sorted(g.line for g in grids)


def test_compressed_files_read_as_the_plain_ones():
    assert sudosat.Grid.read(FIXTURES / "compressed/minimal-40.txt.gz") == sudosat.Grid.read(
        FIXTURES / "minimal-40.txt"
    )
    assert sudosat.Grid.read(FIXTURES / "compressed/expert-20.txt.xz") == sudosat.Grid.read(
        FIXTURES / "expert-20.txt"
    )


@pytest.mark.parametrize("format", ["line", "block", "grid", "csv2", "pretty"])
def test_every_writer_reads_back(format):
    for grid in sudosat.Grid.read(FIXTURES / "expert-20.txt")[:3] + solutions_of(
        "sudoku-16-1.txt"
    ):
        if format == "line" and grid.side > 25:
            continue
        text = grid.format(format)
        if format == "csv2":
            text = "puzzle\n" + text
        assert sudosat.Grid(text) == grid


def test_properties_of_a_puzzle():
    grid = sudosat.Grid("1.3...1..4..2.4.")
    assert (grid.side, grid.box_size, grid.num_givens) == (4, 2, 6)
    assert grid.givens == [(1, 1, 1), (1, 3, 3), (2, 3, 1), (3, 2, 4), (4, 1, 2), (4, 3, 4)]
    assert grid.values == [1, 0, 3, 0, 0, 0, 1, 0, 0, 4, 0, 0, 2, 0, 4, 0]
    assert grid.rows[3] == [2, 0, 4, 0]
    assert grid.value(1, 3) == 3 and grid.value(1, 2) == 0
    assert grid.candidates(1, 2) == [2]
    assert grid.with_value(1, 2, 2).value(1, 2) == 2
    assert not grid.is_full and grid.file == "<text>" and grid.line == 1
    assert sudosat.Grid.empty(3).num_givens == 0 and sudosat.Grid.empty(3).side == 9
    assert sudosat.Grid.from_values(grid.values) == grid
    assert pickle.loads(pickle.dumps(grid)) == grid
    assert len({grid, sudosat.Grid.from_values(grid.values)}) == 1
    assert str(grid) == "1.3...1..4..2.4."
    assert repr(grid) == "Grid('1.3...1..4..2.4.')"


def test_checks_name_what_is_wrong():
    assert sudosat.Grid("1.3...1..4..2.4.").check() == []
    clash = sudosat.Grid("11..............")
    assert clash.check() == ["row 1 repeats 1 at r1c1, r1c2", "box 1 repeats 1 at r1c1, r1c2"]
    assert not clash.is_valid()
    puzzle = sudosat.Grid.read(FIXTURES / "minimal-40.txt")[0]
    solution = solutions_of("minimal-40.txt")[0]
    assert puzzle.check(solution) == [] and puzzle.is_valid(solution)
    # A solution that changes a given, or leaves a blank, is no solution.
    r, c, v = puzzle.givens[0]
    other = solution.with_value(r, c, v % 9 + 1)
    assert puzzle.check(other) != []
    assert puzzle.check(solution.with_value(1, 1, 0)) != []


@pytest.mark.parametrize(
    "text",
    [
        "1.3...1..4..2.4",  # 15 cells
        "1.3...1..4..2.4x",
        "",
        "1.3...1..4..2.4.\n1.3...1..4..2.4.\n",  # two puzzles
    ],
)
def test_bad_text_is_a_value_error_with_its_position(text):
    with pytest.raises(ValueError, match=r"^<text>(:\d+(:\d+)?)?: "):
        sudosat.Grid(text)


def test_a_bad_file_is_named_as_the_cli_names_it(cli, tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("1.3...1..4..2.4.\n1.3..x1..4..2.4.\n")
    stderr = cli("solve", bad, check=False).stderr
    with pytest.raises(ValueError) as error:
        sudosat.Grid.read(bad)
    assert stderr.strip() == f"sudosat: error: {error.value}"
    assert str(error.value).startswith(f"{bad}:2:")
    # A missing file is an OSError naming the path, as Python's own readers raise.
    with pytest.raises(FileNotFoundError) as missing:
        sudosat.Grid.read(tmp_path / "missing.txt")
    assert missing.value.filename == str(tmp_path / "missing.txt")


def test_bad_arguments_are_value_errors():
    with pytest.raises(ValueError, match="unknown format `lines`"):
        sudosat.Grid("1.3...1..4..2.4.", format="lines")
    with pytest.raises(ValueError):
        sudosat.Grid.from_values([1, 2, 3])
    with pytest.raises(ValueError):
        sudosat.Grid.from_values([10] * 16)
    with pytest.raises(ValueError):
        sudosat.Grid.empty(1)
    grid = sudosat.Grid.empty(2)
    for r, c in [(0, 1), (5, 1), (1, 5)]:
        with pytest.raises(ValueError):
            grid.value(r, c)
    with pytest.raises(ValueError):
        grid.with_value(1, 1, 5)
    with pytest.raises(ValueError, match="holds grids up to 25×25"):
        sudosat.Grid.empty(6).format("line")
    with pytest.raises(TypeError):
        sudosat.solve(42)


def test_str_is_the_natural_format_without_its_final_newline():
    small = sudosat.Grid.read(FIXTURES / "expert-20.txt")[0]
    assert str(small) + "\n" == small.format("line")
    # A 36×36 grid with the digit 36, which has no character: the grid format.
    large = sudosat.Grid.empty(6).with_value(1, 1, 36)
    assert str(large) + "\n" == large.format("grid")
    assert not str(large).endswith("\n")


def rows_without_separators(side):
    """A side×side puzzle as side lines of side characters (no separators): the first row
    the digits in order (a blank for 36, which has no character), each other row starting
    with the digit of its number."""
    symbols = ("123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ" + ".")[:side]
    rows = [symbols] + [symbols[r] + "." * (side - 1) for r in range(1, side)]
    return "\n".join(rows) + "\n"


@pytest.mark.parametrize("side", [16, 25, 36])
def test_rows_of_characters_without_separators_read_as_one_grid(side):
    text = rows_without_separators(side)
    grids = sudosat.Grid.parse(text)
    assert len(grids) == 1 and grids[0].side == side
    assert grids[0] == sudosat.Grid.parse(text, format="block")[0]
    assert grids[0].value(1, 2) == 2 and grids[0].value(side, 1) == (side if side < 36 else 0)
