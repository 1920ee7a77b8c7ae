#!/usr/bin/env bash
# The native Sudoku propagation against clauses alone (docs/history.md, "Native Sudoku
# propagation"): cdcl with `--propagate none`,
# `sudoku`, `hall` and `locked` on the sets that need search, one process per puzzle file
# and mode, in one run. CPU time (user + system of the process), not wall time, is the
# measure: the machine is shared.
#
# Usage: scripts/bench-propagate.sh [SET...]
#   SET  hard (gecode 25×25, per puzzle), 64 (large/sudoku-64-1), 9x9 (expert-375 and the
#        first 500 of minimal-2k, per encoding); default: all three
# Environment:
#   SUDOSAT_DATA  the data folder (default: benches/data)
#   MODES         space-separated (default: none sudoku hall locked)
#   TIMEOUT       seconds per solve (default: 120; 600 for the 64×64 grid)
#
# Prints Markdown tables: per file and mode the CPU seconds (or "timeout"), the decisions
# and conflicts, and the candidates the native pass removed.
set -euo pipefail
cd "$(dirname "$0")/.."

DATA=${SUDOSAT_DATA:-benches/data}
read -r -a MODES <<<"${MODES:-none sudoku hall locked}"
read -r -a SETS <<<"${*:-hard 64 9x9}"
cargo build --release --quiet
BIN=$PWD/target/release/sudosat
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# One run: prints "| label | mode | cpu | decisions | conflicts | hall | locked |".
run() {
    local label=$1 file=$2 mode=$3 timeout=$4
    shift 4
    local cpu
    if /usr/bin/time -f "%U %S" -o "$WORK/time" "$BIN" solve --jobs 1 --stats \
        --propagate "$mode" --timeout "$timeout" "$@" "$file" >/dev/null 2>"$WORK/err"; then
        cpu=$(tail -1 "$WORK/time" | awk '{printf "%.2f", $1 + $2}')
    else
        cpu="timeout ($(tail -1 "$WORK/time" | awk '{printf "%.0f", $1 + $2}') s CPU)"
    fi
    awk -v label="$label" -v mode="$mode" -v cpu="$cpu" '
        /^stats:/ {
            n++
            for (i = 1; i <= NF; i++) {
                split($i, kv, "=")
                if (kv[1] ~ /^(decisions|conflicts|hall_removals|locked_removals)$/)
                    sum[kv[1]] += kv[2]
            }
        }
        END {
            printf "| %s | %s | %s | %.1f | %.1f | %.1f | %.1f |\n", label, mode, cpu,
                sum["decisions"] / (n ? n : 1), sum["conflicts"] / (n ? n : 1),
                sum["hall_removals"] / (n ? n : 1), sum["locked_removals"] / (n ? n : 1)
        }' "$WORK/err"
}

header() {
    echo
    echo "| $1 | mode | CPU s | decisions | conflicts | Hall removals | locked removals |"
    echo "|---|---|---:|---:|---:|---:|---:|"
}

echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
for set in "${SETS[@]}"; do
    case $set in
    hard)
        header "gecode 25×25 puzzle"
        k=0
        grep -v '^#' "$DATA/hard/gecode-25x25-6.txt" | while read -r line; do
            [ -n "$line" ] || continue
            k=$((k + 1))
            echo "$line" >"$WORK/g$k.txt"
            for mode in "${MODES[@]}"; do
                run "#$k" "$WORK/g$k.txt" "$mode" "${TIMEOUT:-120}"
            done
        done
        ;;
    64)
        header "grid"
        for mode in "${MODES[@]}"; do
            run "sudoku-64-1" "$DATA/large/sudoku-64-1.txt" "$mode" "${TIMEOUT:-600}"
        done
        ;;
    9x9)
        header "set (per puzzle), encoding"
        head -500 "$DATA/9x9/minimal-2k.txt" >"$WORK/minimal-500.txt"
        for file in "$DATA/9x9/expert-375.txt" "$WORK/minimal-500.txt"; do
            for encoding in minimal extended augmented; do
                for mode in "${MODES[@]}"; do
                    run "$(basename "$file" .txt), $encoding+reduced" "$file" "$mode" \
                        "${TIMEOUT:-120}" --encoding "$encoding"
                done
            done
        done
        ;;
    *)
        echo "bench-propagate: unknown set $set (expected hard, 64, 9x9)" >&2
        exit 2
        ;;
    esac
done
