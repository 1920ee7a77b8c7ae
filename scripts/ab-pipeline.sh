#!/usr/bin/env bash
# Paired speed comparison of two builds on the 9x9 SAT path (docs/benchmarks/nine.md,
# "9×9 sets"):
# runs `examples/sat_pipeline` of the OLD and the NEW build in turn,
# RUNS times each, so that the machine's drift hits both alike, and prints per build the
# min and median over the runs of the end-to-end and solve µs per puzzle. On a shared VM a
# single run varies by ±15 %; alternating runs are what makes a 5 % change visible.
#
# Usage: scripts/ab-pipeline.sh OLD NEW FILE [ROUNDS] [RUNS] [BACKEND]
#   OLD, NEW  sat_pipeline binaries, e.g. an older checkout's target/release/examples/sat_pipeline
#             (build one with `git worktree add ../old HEAD~1` and `cargo build --release
#             --example sat_pipeline` there) and ./target/release/examples/sat_pipeline
#   FILE      a puzzle file, e.g. benches/data/9x9/minimal-2k.txt
#   ROUNDS    rounds per run, best kept (default 3); RUNS runs per build (default 6)
#   BACKEND   default cdcl; the encoding is extended+reduced
set -euo pipefail
[ $# -ge 3 ] || { sed -n '2,/^set -/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2; }
OLD=$1 NEW=$2 FILE=$3 ROUNDS=${4:-3} RUNS=${5:-6} BACKEND=${6:-cdcl}
for _ in $(seq "$RUNS"); do
    for build in old new; do
        bin=$OLD
        [ "$build" = new ] && bin=$NEW
        "$bin" "$FILE" "$BACKEND" extended+reduced "$ROUNDS" | tail -1 |
            awk -F, -v b="$build" '{print b, $7, $5}'
    done
done | python3 -c '
import statistics, sys
runs = {}
for line in sys.stdin:
    build, total, solve = line.split()
    runs.setdefault(build, []).append((float(total), float(solve)))
for build in ("old", "new"):
    total = [t for t, _ in runs[build]]
    solve = [s for _, s in runs[build]]
    print(f"{build}: total min {min(total):.1f} median {statistics.median(total):.1f} | "
          f"solve min {min(solve):.1f} median {statistics.median(solve):.1f} (µs per puzzle)")
'
