#!/usr/bin/env python3
"""Where a section's table stands: the one file among BENCHMARKS.md (the map) and the pages
of docs/benchmarks/ that holds the section's `<!-- begin: SECTION -->` and
`<!-- end: SECTION -->` markers, what stands between them, and how it is replaced (the
prose around the markers stays; the file is written whole or not at all).

A section's markers stand in exactly one file, once each, the end after the begin;
anything else is an error naming the section and the files, before anything is measured.

    python3 scripts/bench/markers.py where SECTION          # the file, or the error
    python3 scripts/bench/markers.py put SECTION BODY_FILE  # BODY_FILE between the markers

scripts/benchmarks.sh asks `where` before it runs a section's script and `put`s its output
after; scripts/bench/headlines.py reads and writes through the same functions.
"""

import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MAP = ROOT / "BENCHMARKS.md"
PAGES = ROOT / "docs" / "benchmarks"


class MarkerError(Exception):
    """Markers missing, repeated or out of order."""


def files():
    """The map and its pages, in a fixed order."""
    return [MAP, *sorted(PAGES.glob("*.md"))]


def markers(section):
    return f"<!-- begin: {section} -->", f"<!-- end: {section} -->"


def name(path):
    return str(path.relative_to(ROOT))


def where(section):
    """The one file holding `section`'s markers, checked: each marker once, in order."""
    begin, end = markers(section)
    holding = [path for path in files() if begin in (text := path.read_text()) or end in text]
    if not holding:
        raise MarkerError(f"no file holds the markers of {section} ({begin} … {end} in "
                          f"{name(MAP)} or {name(PAGES)}/*.md)")
    if len(holding) > 1:
        raise MarkerError(f"the markers of {section} stand in {len(holding)} files, one must hold "
                          f"them: {', '.join(name(path) for path in holding)}")
    path = holding[0]
    text = path.read_text()
    if text.count(begin) != 1 or text.count(end) != 1:
        raise MarkerError(f"{name(path)}: {begin} stands {text.count(begin)} times and {end} "
                          f"{text.count(end)} times; once each")
    if text.index(end) < text.index(begin):
        raise MarkerError(f"{name(path)}: {end} stands before {begin}")
    return path


def body(section):
    """What stands between `section`'s markers, and the file it stands in."""
    path = where(section)
    begin, end = markers(section)
    text = path.read_text()
    return text.split(begin, 1)[1].split(end, 1)[0].strip(), path


def put(section, new_body):
    """`new_body` between `section`'s markers; the rest of the file as it was."""
    path = where(section)
    begin, end = markers(section)
    head, rest = path.read_text().split(begin, 1)
    _, tail = rest.split(end, 1)
    text = f"{head}{begin}\n{new_body.strip()}\n{end}{tail}"
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(handle, "w") as out:
            out.write(text)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise
    return path


def main(argv):
    usage = "usage: markers.py where SECTION | markers.py put SECTION BODY_FILE"
    try:
        if len(argv) == 2 and argv[0] == "where":
            print(name(where(argv[1])))
        elif len(argv) == 3 and argv[0] == "put":
            print(name(put(argv[1], Path(argv[2]).read_text())))
        else:
            print(usage, file=sys.stderr)
            return 2
    except MarkerError as error:
        print(f"benchmarks: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
