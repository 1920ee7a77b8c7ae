"""compare → Study: the rows of the command line's CSV for the same study, the report, CSV
and JSON files it writes, pandas, and its errors."""

import csv
import json

import pytest

import sudosat
from conftest import FIXTURES

PUZZLES = FIXTURES / "minimal-40.txt"
SOLVERS = "cdcl,dpll,dlx"
ENCODINGS = "minimal,extended+reduced"
TIMES = {"encode_us", "solve_us", "decode_us", "total_us"}


def parsed(column, text):
    """A CSV field as the study's rows hold it."""
    if text == "":
        return None
    if column == "counters":
        return {k: int(v) for k, v in (item.split("=") for item in text.split(";"))}
    if column == "checked":
        return text == "true"
    if column in {"line", "puzzle_index", "size", "givens", "repeat", "vars", "clauses", "literals",
                  "puzzle_vars", "puzzle_clauses", "puzzle_literals"}:
        return int(text)
    if column in TIMES:
        return float(text)
    return text


@pytest.fixture(scope="module")
def study():
    return sudosat.compare(PUZZLES, solvers=SOLVERS, encodings=ENCODINGS, limit=8, repeat=2)


def test_the_rows_are_the_cli_csv_rows(cli, study, tmp_path):
    out = tmp_path / "runs.csv"
    cli("compare", PUZZLES, "--solvers", SOLVERS, "--encodings", ENCODINGS, "--limit", 8,
        "--repeat", 2, "--csv", out)
    with open(out, newline="") as f:
        reader = csv.DictReader(f)
        assert reader.fieldnames == sudosat.COLUMNS
        expected = [{k: parsed(k, v) for k, v in row.items()} for row in reader]
    rows = study.rows
    assert len(rows) == len(expected) == 8 * 5 * 2
    for ours, theirs in zip(rows, expected):
        assert list(ours) == sudosat.COLUMNS
        for column in sudosat.COLUMNS:
            if column in TIMES:
                assert (ours[column] is None) == (theirs[column] is None)
            else:
                assert ours[column] == theirs[column], column
    assert study.solvers == [
        "cdcl/minimal", "cdcl/extended+reduced", "dpll/minimal", "dpll/extended+reduced", "dlx",
    ]
    assert all(r["outcome"] == "solved" and r["checked"] for r in rows)
    assert (study.puzzles, len(study), study.interrupted, study.has_wrong_answer) == (8, 80, False, False)


def test_the_files_are_those_of_the_cli(cli, study, tmp_path):
    study.to_csv(tmp_path / "runs.csv")
    meta = json.loads((tmp_path / "runs.meta.json").read_text())
    assert meta["solvers"] == study.solvers
    # The command line redraws the same summary from the saved runs.
    redrawn = cli("compare", "--from-csv", tmp_path / "runs.csv").stdout
    assert redrawn == study.summary()
    study.to_json(tmp_path / "runs.json")
    document = json.loads((tmp_path / "runs.json").read_text())
    assert len(document["runs"]) == len(study) and document["solvers"] == study.solvers
    study.report(tmp_path / "report")
    written = sorted(p.name for p in (tmp_path / "report").iterdir())
    assert written == ["index.html", "report.json", "runs.csv", "runs.meta.json", "summary.csv"]
    assert "cdcl/extended+reduced" in (tmp_path / "report/index.html").read_text()
    # Written again over an earlier report; refused over anything else.
    study.report(tmp_path / "report", scatter=[("cdcl/minimal", "dlx")], by="clues")
    with pytest.raises(ValueError, match="is not a report directory"):
        study.report(tmp_path)
    with pytest.raises(ValueError, match="no entry `cdcl` in this comparison"):
        study.report(tmp_path / "report", scatter=[("cdcl", "dlx")])
    assert "| solver |" in study.summary(markdown=True)


def test_to_pandas(study):
    pandas = pytest.importorskip("pandas")
    frame = study.to_pandas()
    assert isinstance(frame, pandas.DataFrame)
    assert list(frame.columns) == sudosat.COLUMNS and len(frame) == len(study)
    assert set(frame.groupby("solver")["vars"].first().dropna().index) == {
        "cdcl/minimal", "cdcl/extended+reduced", "dpll/minimal", "dpll/extended+reduced",
    }


def test_lists_grids_and_defaults():
    grids = sudosat.Grid.read(PUZZLES)[:3]
    study = sudosat.compare(grids, solvers=["cdcl", "dlx"], encodings=["minimal", "minimal"],
                            amo="sequential,binary", timeout=30, jobs=2)
    assert study.solvers == ["cdcl/minimal/sequential", "cdcl/minimal/binary", "dlx"]
    assert [r["line"] for r in study.rows[::3]] == [1, 2, 3]
    default = sudosat.compare("1.3...1..4..2.4." and [grids[0]])
    assert default.solvers == [
        "cdcl/extended+reduced", "dpll/extended+reduced", "varisat/extended+reduced",
        "splr/extended+reduced", "dlx",
    ]
    texts = sudosat.compare(["1.3...1..4..2.4.", "11.............."], solvers="dlx")
    assert [r["outcome"] for r in texts.rows] == ["solved", "no_solution"]
    assert texts.rows[0]["file"] == "<text>"


@pytest.mark.parametrize(
    "args,kwargs",
    [
        (["--solvers", "dancing"], {"solvers": "dancing"}),
        (["--encodings", "tiny"], {"encodings": "tiny"}),
        (["--amo", "ladder"], {"amo": "ladder"}),
        (["--solvers", "external"], {"solvers": "external"}),
        (["--solvers", "external:no-such-solver-here"], {"solvers": "external:no-such-solver-here"}),
        (["--root", "deep"], {"root": "deep"}),
    ],
)
def test_errors_say_what_the_cli_says(cli, args, kwargs):
    stderr = cli("compare", PUZZLES, "--limit", 1, *args, check=False).stderr.strip()
    with pytest.raises(ValueError) as error:
        sudosat.compare(PUZZLES, limit=1, **kwargs)
    assert stderr.splitlines()[0].endswith(str(error.value).splitlines()[0])


def test_bad_counts_are_value_errors():
    with pytest.raises(ValueError, match="--repeat must be between"):
        sudosat.compare(PUZZLES, solvers="dlx", repeat=0)
    with pytest.raises(ValueError, match="timeout must be a positive number"):
        sudosat.compare(PUZZLES, solvers="dlx", timeout=-1)
    with pytest.raises(ValueError, match="no puzzle"):
        sudosat.compare([], solvers="dlx")


def test_the_sizes_are_nullable_integers_in_pandas():
    pytest.importorskip("pandas")
    frame = sudosat.compare(FIXTURES / "minimal-40.txt", "cdcl,dlx", limit=2).to_pandas()
    for column in ["vars", "clauses", "literals", "puzzle_vars", "puzzle_clauses", "puzzle_literals"]:
        assert str(frame[column].dtype) == "Int64", column
    sat_rows = frame[frame["solver"] != "dlx"]
    assert (sat_rows["clauses"] > 0).all()
    assert frame[frame["solver"] == "dlx"]["clauses"].isna().all()
