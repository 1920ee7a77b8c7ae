#!/usr/bin/env python3
"""BENCHMARKS.md's headline tables: each one a few rows and columns of a table that a
section's script printed on its page of docs/benchmarks/, put between the map's
`<!-- begin: headline-NAME -->` and `<!-- end: headline-NAME -->` markers with the date and
revision of the run it comes from. It measures nothing and reads only the pages, so the map
holds no figure its page does not: scripts/benchmarks.sh runs it after the sections it
was asked for, and `scripts/benchmarks.sh headlines` runs it alone.

A headline is one entry of HEADLINES below: its NAME, the SECTION it reads, which TABLE
of that section's output (0 the first), its COLUMNS (a heading as the page prints it, or
its position when a heading repeats; a pair (column, heading) prints it under another
heading; None keeps them all) and its ROWS (the text of a row's first cell; each names
every row that starts so, in the order given; None keeps them all). A section,
heading or row that is not there is an error naming it, and that headline keeps its old
table; the others are written.

    python3 scripts/bench/headlines.py [NAME...]   # default: every headline
"""

import re
import sys
from collections import namedtuple
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from markers import MarkerError, body, name, put  # noqa: E402

Headline = namedtuple("Headline", "name section table columns rows")

HEADLINES = [
    Headline("nine", "nine", 0, [0, 1, 2, 3, 4], None),
    Headline("kissat", "kissat", 0,
             ["entry", "CPU s", "÷ Kissat 4.0.4", "median Kissat 4.0.4 ÷ entry",
              "faster than Kissat 4.0.4"],
             ["Kissat 4.0.4", "sudosat sat", "sudosat solve", "CaDiCaL 2.2.1"]),
    Headline("fresh", "fresh", 0,
             ["entry", "CPU s", "÷ Kissat 4.0.4", "median Kissat 4.0.4 ÷ entry",
              "faster than Kissat 4.0.4"],
             ["Kissat 4.0.4", "sudosat sat", "sudosat solve", "AE-Kissat-MAB"]),
    Headline("large", "large", 0, ["grid", "wall", "CPU", "peak memory"],
             ["25×25", "64×64", "144×144", "225×225"]),
    Headline("root", "root", 2, ["grid", "sudosat (auto)", 2, 3, 4, 5],
             ["sudoku-64-1", "sudoku-100-1", "sudoku-225-1", "unique-400-1"]),
    Headline("embedded", "embedded", 0, ["entry", "median", "total", "÷ cdcl"], None),
    Headline("memory", "memory", 0,
             ["input", (2, "sudosat, peak"), (4, "CaDiCaL 1.5.3, peak"), "÷ CaDiCaL"],
             ["minimal-2k (2,000 puzzles)", "gecode 25×25 puzzle 1", "64×64", "225×225"]),
    Headline("proofs", "proofs", 0,
             ["puzzles", "DRAT", "count", "proof mean / max", "drat-trim mean / max", "verified"],
             ["gecode 25×25, puzzles 1, 3, 5, 6"]),
    Headline("parsing", "parsing", 1, ["input", "file", "parse time", "rate"], None),
    Headline("ksat", "ksat", 0,
             ["k", "formulas × variables", "varisat", "cdcl (the default)"], None),
    Headline("python", "python", 0, None, None),
    Headline("afl", "afl", 0,
             ["target", "execs", "edges (found / map)", "crashes", "hangs"], None),
    Headline("web", "web", 0, ["set", "native", "in the browser", "ratio", "target"], None),
    Headline("encoding", "encoding", 0,
             ["grid", "variables (extended)", "clauses, extended"],
             ["sudoku-9-1.txt", "sudoku-25-1.txt", "sudoku-225-1.txt"]),
]

# The line a section's script prints above its tables (scripts/bench/common.py, header).
MEASURED = re.compile(r"^Measured on .*?; (\d{4}-\d\d-\d\d) [\d:]+ UTC, .*?; revision (.+?), "
                      r"release build", re.MULTILINE)


class HeadlineError(Exception):
    """What a headline asks for and its page lacks."""


def cells(line):
    """The cells of a Markdown table row (`\\|` inside a cell stays)."""
    inner = line.strip().removeprefix("|").removesuffix("|")
    return [cell.strip() for cell in re.split(r"(?<!\\)\|", inner)]


def tables(text):
    """The Markdown tables of `text`, outside code blocks: each a list of rows of cells, the
    heading first, then the alignment row."""
    found, current, fenced = [], [], False
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        if not fenced and line.startswith("|"):
            current.append(cells(line))
            continue
        if current:
            found.append(current)
            current = []
    if current:
        found.append(current)
    return found


def column_index(headline, headings, column):
    if isinstance(column, tuple):
        column = column[0]
    if isinstance(column, int):
        if column >= len(headings):
            raise HeadlineError(f"{headline.name}: column {column} is past the table's "
                                f"{len(headings)} columns")
        return column
    matches = [i for i, heading in enumerate(headings) if heading == column]
    if len(matches) != 1:
        what = "no column" if not matches else f"{len(matches)} columns (give its position)"
        raise HeadlineError(f"{headline.name}: {what} headed `{column}` in the {headline.section} "
                            f"table {headline.table} ({' | '.join(headings)})")
    return matches[0]


def pick(headline, text):
    """The headline's Markdown, from the text between its section's markers."""
    found = tables(text)
    if headline.table >= len(found):
        raise HeadlineError(f"{headline.name}: the {headline.section} section prints "
                            f"{len(found)} table(s), no table {headline.table}")
    headings, alignment, *rows = found[headline.table]
    for row in rows:
        if len(row) != len(headings):
            raise HeadlineError(f"{headline.name}: a row of {len(row)} cells under "
                                f"{len(headings)} headings in the {headline.section} table "
                                f"{headline.table}: {' | '.join(row)}")
    wanted = headline.columns or range(len(headings))
    columns = [column_index(headline, headings, c) for c in wanted]
    renamed = [c[1] if isinstance(c, tuple) else headings[i] for c, i in zip(wanted, columns)]
    if headline.rows is not None:
        picked = []
        for first in headline.rows:
            matching = [row for row in rows if row[0] == first]
            if not matching:
                raise HeadlineError(f"{headline.name}: no row `{first}` in the {headline.section} "
                                    f"table {headline.table}")
            picked.extend(matching)
        rows = picked
    lines = ["| " + " | ".join(renamed) + " |",
             "|" + "|".join(alignment[i] for i in columns) + "|"]
    lines += ["| " + " | ".join(row[i] for i in columns) + " |" for row in rows]
    measured = MEASURED.search(text)
    if measured:
        lines += ["", f"Measured {measured.group(1)}, revision {measured.group(2)}."]
    return "\n".join(lines)


def main(names):
    chosen = [h for h in HEADLINES if not names or h.name in names]
    unknown = set(names) - {h.name for h in HEADLINES}
    status = 0
    if unknown:
        print(f"headlines: no headline {', '.join(sorted(unknown))} (known: "
              f"{' '.join(h.name for h in HEADLINES)})", file=sys.stderr)
        status = 1
    for headline in chosen:
        try:
            text, page = body(headline.section)
            path = put(f"headline-{headline.name}", pick(headline, text))
            print(f"headlines: {headline.name} from {name(page)} into {name(path)}",
                  file=sys.stderr)
        except (MarkerError, HeadlineError) as error:
            print(f"headlines: {error}; its table is unchanged", file=sys.stderr)
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
