#!/usr/bin/env bash
# Regenerates BENCHMARKS.md "Large grids": the single-puzzle time and peak memory of each
# SAT backend on each grid of ../shared/data/large/ (extended+reduced encoding, the
# default), one `sudosat solve --stats` process per cell of the table.
#
# Usage: scripts/bench-large.sh [N...]        (default: 16 25 64 81 100 144 225)
# Environment:
#   SUDOSAT_DATA  the data folder (default: ../shared/data)
#   BACKENDS      space-separated --backend values (default: dpll splr varisat minisat
#                 cadical); `cadical` runs `--backend external --solver-cmd "cadical -q"`
#   TIMEOUT       seconds per solve (default: 60); varisat cannot be interrupted, so it
#                 runs as a killable `sudosat sat` process through `external`
#
# Prints a Markdown table: per grid and backend, the solver's own total (encode, solve,
# decode and check, from --stats), the process's wall time and its peak resident memory
# (`/usr/bin/time -f %M`: the larger of sudosat's and that of the solver process it ran).
set -euo pipefail
cd "$(dirname "$0")/.."

DATA=${SUDOSAT_DATA:-../shared/data}
TIMEOUT=${TIMEOUT:-60}
read -r -a BACKS <<<"${BACKENDS:-dpll splr varisat minisat cadical}"
SIZES=("$@")
[ ${#SIZES[@]} -eq 0 ] && SIZES=(16 25 64 81 100 144 225)
if [ ! -x /usr/bin/time ]; then
    echo "bench-large: needs /usr/bin/time (apt-get install time)" >&2
    exit 2
fi
cargo build --release --quiet
BIN=$PWD/target/release/sudosat

echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
echo
echo "| grid | backend | outcome | total (--stats) | wall | peak memory |"
echo "|---|---|---|---:|---:|---:|"
for n in "${SIZES[@]}"; do
    file=$DATA/large/sudoku-$n-1.txt
    [ -f "$file" ] || continue
    for backend in "${BACKS[@]}"; do
        case $backend in
        cadical) args=(--backend external --solver-cmd "cadical -q") ;;
        varisat) args=(--backend external --solver-cmd "$BIN sat --backend varisat") ;;
        *) args=(--backend "$backend") ;;
        esac
        log=$(mktemp)
        /usr/bin/time -f "TIME %e %M" "$BIN" solve "$file" --stats --timeout "$TIMEOUT" \
            "${args[@]}" >/dev/null 2>"$log" || true
        read -r wall peak < <(awk '/^TIME/ {print $2, $3}' "$log")
        total=$(grep -oE 'total=[0-9.]+[µm]?s' "$log" | head -1 | cut -d= -f2 || true)
        if grep -q 'timed out' "$log"; then
            outcome="time-out (${TIMEOUT} s)"
        elif [ -n "$total" ]; then
            outcome=solved
        else
            outcome="error: $(grep -m1 'error' "$log" | cut -c1-80)"
        fi
        echo "| ${n}×${n} | $backend | $outcome | ${total:-—} | ${wall} s | $((peak / 1024)) MiB |"
        rm -f "$log"
    done
done
