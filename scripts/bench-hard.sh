#!/usr/bin/env bash
# Regenerates BENCHMARKS.md "CDCL on the search-heavy sets": each puzzle of
# ../shared/data/hard/gecode-25x25-6.txt solved by the default path (cdcl,
# extended+reduced) and by the other backends on the very same CNF, one process each,
# in one run so the ratios compare like with like.
#
# Usage: scripts/bench-hard.sh
# Environment:
#   SUDOSAT_DATA  the data folder (default: ../shared/data)
#   BACKENDS      space-separated (default: cdcl dpll cadical minisat); `cadical` and
#                 `minisat` run the exported CNF as external processes
#   TIMEOUT       seconds per solve (default: 60)
#
# Prints a Markdown table: per puzzle and backend, the process's wall time (or
# "timeout"), then the totals per backend (a time-out counts as the limit).
set -euo pipefail
cd "$(dirname "$0")/.."

DATA=${SUDOSAT_DATA:-../shared/data}
TIMEOUT=${TIMEOUT:-60}
read -r -a BACKS <<<"${BACKENDS:-cdcl dpll cadical minisat}"
SET=$DATA/hard/gecode-25x25-6.txt
[ -f "$SET" ] || { echo "bench-hard: $SET is missing" >&2; exit 2; }
cargo build --release --quiet
BIN=$PWD/target/release/sudosat
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| puzzle | $(printf '%s | ' "${BACKS[@]}")"
echo "|---|$(printf -- '---:|%.0s' "${BACKS[@]}")"
declare -A total
k=0
grep -v '^#' "$SET" | while read -r line; do
    [ -n "$line" ] || continue
    k=$((k + 1))
    echo "$line" >"$WORK/p$k.txt"
    "$BIN" encode "$WORK/p$k.txt" --reduce -o "$WORK/p$k.cnf"
    row="| $k |"
    for backend in "${BACKS[@]}"; do
        case $backend in
            cadical) cmd=(timeout "$TIMEOUT" cadical -q "$WORK/p$k.cnf") ;;
            minisat) cmd=(timeout "$TIMEOUT" minisat "$WORK/p$k.cnf" "$WORK/out") ;;
            *) cmd=("$BIN" solve --backend "$backend" --timeout "$TIMEOUT" "$WORK/p$k.txt") ;;
        esac
        start=$(date +%s.%N)
        set +e
        "${cmd[@]}" >/dev/null 2>&1
        status=$?
        set -e
        secs=$(echo "$(date +%s.%N) - $start" | bc)
        case $backend:$status in
            cadical:10 | minisat:10 | cdcl:0 | dpll:0 | varisat:0 | splr:0)
                row="$row $(printf '%.2f s' "$secs") |" ;;
            *) row="$row timeout |"; secs=$TIMEOUT ;;
        esac
        echo "$backend $secs" >>"$WORK/totals"
    done
    echo "$row"
done
echo
awk '{t[$1] += $2} END {for (b in t) printf "total %s: %.2f s\n", b, t[b]}' "$WORK/totals" | sort
