#!/usr/bin/env python3
"""docs/benchmarks/large.md, "Root reasoning on the widest grids made for the sweep":
scripts/bench/sweep.py at sides 225 and 400, in a table of its own, so that either can be
made again without the other (at these sides one method's grids take up to MAKE_TIMEOUT
to make, and a grid no mode answers costs three time limits).

Defaults that differ from sweep.py's: SIDES 225 400, KISSAT_SIDES 225 400, TIMEOUT 30,
MAKE_TIMEOUT 900; the rest of its environment as there.
"""

import os
import sys
from pathlib import Path

for key, value in (("SIDES", "225 400"), ("KISSAT_SIDES", "225 400"), ("TIMEOUT", "30"),
                   ("MAKE_TIMEOUT", "900")):
    os.environ.setdefault(key, value)
sys.path.insert(0, str(Path(__file__).resolve().parent))
import sweep  # noqa: E402

sweep.SECTION = "sweep-wide"

if __name__ == "__main__":
    sweep.main()
