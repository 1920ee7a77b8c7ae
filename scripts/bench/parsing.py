#!/usr/bin/env python3
"""docs/benchmarks/parsing.md, "Parsing": how fast the readers take their inputs.

The grid formats in CPU time (`examples/parse_cpu`: the inputs of `benches/parse.rs`, each
parsed until a second of CPU has passed, best of ROUNDS rounds), which a shared machine
disturbs far less than wall time; then the DIMACS reader on the largest formula we write
(`sudoku-225-1`, extended+reduced, 142 MB), plain and compressed, from the `c parse time`
line of `sudosat sat --stats`.

Environment: ROUNDS (default 3), SUDOSAT_DATA (default benches/data).
"""

import os
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import BIN, EXAMPLES, WORK, build, data, header, log, run, show, table  # noqa: E402

ROUNDS = os.environ.get("ROUNDS", "3")


def main():
    build(examples=True)
    parse_cpu = [str(EXAMPLES / "parse_cpu")]
    cnf = WORK / "parse-225.cnf"
    encode = [str(BIN), "encode", "--reduce", str(data("large/sudoku-225-1.txt")), "-o", str(cnf)]
    compressed = {ext: WORK / f"parse-225.cnf.{ext}" for ext in ("gz", "xz")}
    encodes = [[str(BIN), "encode", "--reduce", str(data("large/sudoku-225-1.txt")), "-o", str(path)]
               for path in compressed.values()]
    reads = {name: [str(BIN), "sat", "--stats", "--timeout", "0.01", str(path)]
             for name, path in [("plain", cnf), *compressed.items()]}
    header([f"ROUNDS={ROUNDS} " + show(parse_cpu), show(encode), *[show(c) for c in encodes],
            *[show(c) for c in reads.values()]])

    log("parsing: parse_cpu")
    r = run(parse_cpu, timeout=600, env={"ROUNDS": ROUNDS})
    if r.code != 0:
        sys.exit(f"parse_cpu failed: {r.stderr.strip()[:300]}")
    rates = {}
    for line in r.stdout.splitlines():
        m = re.match(r"(\S+) (\S+) ([\d.]+) MiB/s", line)
        if m:
            rates.setdefault(m.group(2), {})[m.group(1)] = m.group(3)
    sizes = sorted({s for by in rates.values() for s in by}, key=lambda s: int(s.split("x")[0]))
    rows = [[fmt] + [rates[fmt].get(s, "–") for s in sizes] for fmt in rates]
    print(f"Grid formats, MiB/s of CPU time (best of {ROUNDS} rounds; 1,000 × a 9×9 puzzle, 40 × a "
          "25×25 one, as `sudosat convert` writes them):")
    print()
    table(["format"] + [s.replace("x", "×") for s in sizes], rows)

    for command in [encode, *encodes]:
        log(f"parsing: {show(command)}")
        if run(command, timeout=600).code != 0:
            sys.exit(f"{show(command)} failed")
    rows = []
    plain_bytes = cnf.stat().st_size
    for name, command in reads.items():
        log(f"parsing: {show(command)}")
        r = run(command, timeout=600)
        m = re.search(r"c parse time\D*([\d.]+)", r.stdout)
        if not m:
            sys.exit(f"{show(command)}: no parse time in its output")
        t = float(m.group(1))
        size = Path(command[-1]).stat().st_size
        rows.append([name, f"{size / 1e6:,.1f} MB", f"{t:.2f} s", f"{plain_bytes / 2**20 / t:,.0f} MiB/s",
                     f"{r.cpu:.2f} s"])
    for path in [cnf, *compressed.values()]:
        path.unlink()
    print("The DIMACS reader on the reduced `sudoku-225-1` formula (8.1 million clauses): the "
          "reader's own wall time (`c parse time`), the rate it makes of the uncompressed bytes, "
          "and the CPU time of the whole process (parsing, loading, 0.01 s of search), which a "
          "loaded machine disturbs less:")
    print()
    table(["input", "file", "parse time", "rate", "process CPU"], rows)


if __name__ == "__main__":
    main()
