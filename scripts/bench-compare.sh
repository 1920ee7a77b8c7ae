#!/usr/bin/env bash
# Regenerates the figures of BENCHMARKS.md "Compare runs": `sudosat compare` (release build,
# one solve at a time) on the shared data sets.
#
# Usage: scripts/bench-compare.sh [SET...]
#   SET: 17clue, hardest, generalized, large, hard (default: all five, in that order).
#        `hard` is issue 11's search-heavy target as formulas: the six gecode 25x25
#        puzzles and sudoku-64-1, encoded once (extended+reduced) and compared as CNFs
#        with CaDiCaL first, so the ratios are against it, measured in one run.
# Environment:
#   SUDOSAT_DATA  the data folder (default: ../shared/data, relative to the repository)
#   OUT           where the outputs go (default: target/bench-compare): SET.md (the
#                 summary, as the Markdown tables pasted into BENCHMARKS.md), SET.csv,
#                 SET.json, SET.svg, and machine.txt
#
# Each set's command is printed before it runs, so a figure can be reproduced alone.
set -euo pipefail
cd "$(dirname "$0")/.."

DATA=${SUDOSAT_DATA:-../shared/data}
OUT=${OUT:-target/bench-compare}
SETS=("$@")
[ ${#SETS[@]} -eq 0 ] && SETS=(17clue hardest generalized large hard)

if [ ! -d "$DATA" ]; then
    echo "bench-compare: no data folder $DATA (set SUDOSAT_DATA)" >&2
    exit 2
fi
cargo build --release --quiet
BIN=$PWD/target/release/sudosat
mkdir -p "$OUT"

{
    echo "date: $(date -u +%Y-%m-%dT%H:%MZ)"
    echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
    echo "cpu: $(nproc) cores, $(uname -m), $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ //')"
    echo "memory: $(free -g 2>/dev/null | awk '/^Mem:/ {print $2 " GiB"}')"
    echo "rustc: $(rustc --version)"
    echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
} > "$OUT/machine.txt"
cat "$OUT/machine.txt"

# The 9×9 sets: every embedded backend in every encoding, MiniSat (external process, same
# CNF), and the complete classic solvers.
NINE_SOLVERS="embedded,minisat,dlx,backtrack-mrv,human,best-first,fifo"
# From 16×16 up, varisat runs as a killable process (`sudosat sat`, same CNF): in-process
# it cannot be interrupted and runs for many minutes on some 36×36 and 64×64 grids.
BIG_SAT="dpll,splr,external:$BIN sat --backend varisat,minisat"

compare() {
    local name=$1
    shift
    echo
    echo "== $name: sudosat compare $*"
    "$BIN" compare -q --markdown "$@" \
        --csv "$OUT/$name.csv" --json "$OUT/$name.json" --plot "$OUT/$name.svg" \
        | tee "$OUT/$name.md"
}

for set in "${SETS[@]}"; do
    case $set in
    17clue)
        compare 17clue "$DATA/9x9/17clue-2k.txt" \
            --solvers "$NINE_SOLVERS" --encodings all --timeout 10
        ;;
    hardest)
        compare hardest "$DATA/9x9/hardest-375.txt" \
            --solvers "$NINE_SOLVERS" --encodings all --timeout 10 --by clues
        ;;
    generalized)
        # 100 of the 3,000 rank-3 (9×9) puzzles, all 10 of ranks 4, 5, 6 (16×16 … 36×36).
        compare generalized "$DATA"/generalized/sudoku_rank_{3,4,5,6}.csv --limit 100 \
            --solvers "$BIG_SAT,dlx,backtrack-mrv,human" \
            --encodings minimal+reduced,extended+reduced --timeout 30 --by size
        ;;
    large)
        compare large "$DATA"/large/sudoku-{4,9,16,25,64,81,100,144,225}-1.txt \
            --solvers "$BIG_SAT,dlx" --encodings extended+reduced \
            --timeout 30 --by size
        ;;
    hard)
        # The default path is `sudosat sat` as a process (two threads, as `solve` runs);
        # `cdcl` is the in-process backend on one thread, as compare runs every entry.
        rm -rf "$OUT/hard-cnf"
        "$BIN" encode --reduce "$DATA/hard/gecode-25x25-6.txt" --out-dir "$OUT/hard-cnf"
        "$BIN" encode --reduce "$DATA/large/sudoku-64-1.txt" -o "$OUT/hard-cnf/sudoku-64-1.cnf"
        HARD="external:cadical -q,external:$BIN sat,cdcl,minisat"
        command -v kissat >/dev/null && HARD="$HARD,external:kissat -q"
        compare hard --cnf "$OUT"/hard-cnf/*.cnf --solvers "$HARD" --timeout 120
        ;;
    *)
        echo "bench-compare: unknown set '$set' (expected 17clue, hardest, generalized, large, hard)" >&2
        exit 2
        ;;
    esac
done
