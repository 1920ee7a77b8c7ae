#!/usr/bin/env bash
# Paired whole-process speed comparison of two sudosat binaries on the sets that pin the
# solver's speed (those of docs/benchmarks/nine.md, "9×9 sets", hard.md, "Hard 25×25"
# and large.md, "Large grids"): each set is solved by the OLD and the NEW binary in turn,
# RUNS times each, one thread, so that the machine's drift hits both alike; per set it
# prints each build's median wall time and the ratio new/old (0.97–1.03 is "the same
# speed" on a shared machine).
#
# Usage: scripts/ab-release.sh OLD NEW [RUNS] [DATA]
#   OLD, NEW  sudosat binaries, e.g. an older commit's build in a worktree
#             (`git worktree add ../old HEAD~5 && cargo build --release` there) and
#             ./target/release/sudosat
#   RUNS      runs per build and set (default 5)
#   DATA      the puzzle sets' folder (default benches/data); a missing set is skipped
set -euo pipefail
[ $# -ge 2 ] || { sed -n '2,/^set -/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2; }
OLD=$1 NEW=$2 RUNS=${3:-5} DATA=${4:-benches/data}
python3 - "$OLD" "$NEW" "$RUNS" "$DATA" <<'PY'
import os, statistics, subprocess, sys, time
old, new, runs, data = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
sets = ["9x9/minimal-2k.txt", "9x9/expert-375.txt", "hard/gecode-25x25-6.txt",
        "large/sudoku-64-1.txt"]
print(f"| set | old (s) | new (s) | new/old |")
print(f"|---|---:|---:|---:|")
for name in sets:
    path = os.path.join(data, name)
    if not os.path.exists(path):
        print(f"| {name} | skipped: not found | | |")
        continue
    times = {"old": [], "new": []}
    for _ in range(runs):
        for build, binary in (("old", old), ("new", new)):
            start = time.perf_counter()
            subprocess.run([binary, "solve", "--threads", "1", "--jobs", "1", path],
                           stdout=subprocess.DEVNULL, check=True)
            times[build].append(time.perf_counter() - start)
    o, n = statistics.median(times["old"]), statistics.median(times["new"])
    print(f"| {name} | {o:.3f} | {n:.3f} | {n / o:.3f} |", flush=True)
PY
