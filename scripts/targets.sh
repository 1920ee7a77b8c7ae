#!/usr/bin/env bash
# Issue 11's targets, measured in one go on this machine (BENCHMARKS.md, "Targets with this
# session's final build"): each figure is a ratio or a time from one run, printed with the
# command that made it.
#
# Usage: scripts/targets.sh [TARGET...]
#   TARGET: hard (the gecode 25x25 set and sudoku-64-1 as CNFs against CaDiCaL, through
#           scripts/bench-compare.sh hard), hardest (hardest-375, cdcl against varisat),
#           17clue (17clue-2k end to end, re-encoding and batch mode), random (random 3-SAT
#           at the threshold, cdcl against varisat), large (sudoku-81-1 and a generated
#           400x400 grid with 90 % givens, `sudosat solve` wall time)
#           default: all of them, cheapest first
# Environment:
#   SUDOSAT_DATA  the data folder (default: ../shared/data)
#
# Check for stray processes first (`ps aux --sort=-%cpu`): a second busy core halves some
# figures.
set -euo pipefail
cd "$(dirname "$0")/.."

DATA=${SUDOSAT_DATA:-../shared/data}
read -r -a TARGETS <<<"${*:-random hardest 17clue large hard}"
if [ ! -d "$DATA" ]; then
    echo "targets: no data folder $DATA (set SUDOSAT_DATA)" >&2
    exit 2
fi
cargo build --release --quiet --examples
BIN=$PWD/target/release/sudosat
EXAMPLES=$PWD/target/release/examples
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

run() {
    echo
    echo "== $*"
    "$@"
}

# Wall seconds of one `sudosat solve` of FILE (the answer is checked by solve itself).
wall() {
    local TIMEFORMAT="sudosat solve $(basename "$1"): %R s wall"
    time "$BIN" solve "$1" >/dev/null
}

for target in "${TARGETS[@]}"; do
    case $target in
    random)
        run "$EXAMPLES/random_3sat" 200 150 cdcl,varisat
        ;;
    hardest)
        run "$EXAMPLES/sat_pipeline" "$DATA/9x9/hardest-375.txt" cdcl,varisat \
            extended+reduced 3
        ;;
    17clue)
        run "$EXAMPLES/sat_pipeline" "$DATA/9x9/17clue-2k.txt" cdcl,cdcl@assumptions \
            extended+reduced 3
        ;;
    large)
        echo
        echo "== sudoku-81-1 and a 400x400 grid with 144,000 givens (generate --seed 1)"
        wall "$DATA/large/sudoku-81-1.txt"
        "$BIN" generate --size 20 --clues 144000 --no-unique --seed 1 --to grid \
            -o "$WORK/400.txt"
        wall "$WORK/400.txt"
        ;;
    hard)
        run scripts/bench-compare.sh hard
        ;;
    *)
        echo "targets: unknown target '$target' (expected random, hardest, 17clue, large, hard)" >&2
        exit 2
        ;;
    esac
done
