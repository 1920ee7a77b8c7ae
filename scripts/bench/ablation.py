#!/usr/bin/env python3
"""docs/benchmarks/hard.md, "Against Kissat 4", the ablation table: Kissat 4.0.4 with one
technique off (or one mode forced) a row, on the 48 draws of scripts/bench/kissat.py (its
SECTION=ablation). A section of its own, so that measuring a change to sudosat's search (the
`kissat` section) leaves it standing: these figures move only with Kissat. Takes about half
an hour.
"""

import os
import sys
from pathlib import Path

os.environ["SECTION"] = "ablation"
sys.path.insert(0, str(Path(__file__).resolve().parent))
import kissat  # noqa: E402

if __name__ == "__main__":
    kissat.main()
