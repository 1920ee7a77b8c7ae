#!/usr/bin/env bash
# The search-heavy benchmark of the built-in CDCL solver, for judging a change to its search
# (docs/history.md, "How changes were measured"): puzzles that need real search, each also as isomorphic copies (scripts/
# isomorphs.py) because one CDCL run is one draw from a wide spread. One process per puzzle
# and configuration, limited in CPU seconds (`ulimit -t`), not wall time: the machine may be
# shared. CaDiCaL, when on PATH, solves the same CNFs (`sudosat encode --reduce`, extended+reduced).
#
# Usage: scripts/bench-hard.sh [SET...]
#   SET  gecode (hard/gecode-25x25-6 x 4 isomorphs), gen49 (four generated 49x49 grids,
#        1,395 clues), gen64 (six generated 64x64 grids, 2,490 clues), 64-1 (large/
#        sudoku-64-1 and three isomorphs); default: gecode gen49 gen64
# Environment:
#   SUDOSAT_DATA  the data folder (default: benches/data)
#   CONFIGS       `;`-separated argument lists for `sudosat solve`, one row each, or
#                 `cadical` (default: "--propagate none;--propagate sudoku;cadical")
#   CPU           CPU seconds per solve (default 30; 120 for 64-1)
#   BENCH_BIN     the sudosat binary measured, a copy kept aside (default: this clone's
#                 release build, built first)
#
# Prints one Markdown row per set and configuration: CPU seconds in total (a time-out
# counts its limit), time-outs, and per puzzle "CPU s/conflicts".
set -euo pipefail
cd "$(dirname "$0")/.."

DATA=${SUDOSAT_DATA:-benches/data}
IFS=';' read -r -a CONFIGS <<<"${CONFIGS:---propagate none;--propagate sudoku;cadical}"
read -r -a SETS <<<"${*:-gecode gen49 gen64}"
if [ -n "${BENCH_BIN:-}" ]; then
    BIN=$BENCH_BIN
else
    cargo build --release --quiet
    BIN=$PWD/target/release/sudosat
fi
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# make_set NAME: one puzzle per file in $WORK/NAME/.
make_set() {
    local dir=$WORK/$1 k=0
    mkdir -p "$dir"
    case $1 in
    gecode)
        python3 scripts/isomorphs.py "$DATA/hard/gecode-25x25-6.txt" 4 7 |
            while read -r line; do
                k=$((k + 1))
                echo "$line" >"$dir/$(printf %02d $k).txt"
            done
        ;;
    gen49 | gen64)
        local size clues seeds
        if [ "$1" = gen49 ]; then size=7 clues=1395 seeds="1 2 3 4"; else size=8 clues=2490 seeds="1 2 3 4 5 6"; fi
        for s in $seeds; do
            "$BIN" generate --size $size --clues $clues --no-unique --seed "$s" -q --to grid \
                -o "$dir/$(printf %02d "$s").txt"
        done
        ;;
    64-1)
        cp "$DATA/large/sudoku-64-1.txt" "$dir/00.txt"
        python3 scripts/isomorphs.py "$DATA/large/sudoku-64-1.txt" 4 1 |
            awk -v dir="$dir" 'BEGIN { k = 0 } /^$/ { k++; next } k > 0 { print > sprintf("%s/%02d.txt", dir, k) }'
        ;;
    *)
        echo "bench-hard: unknown set $1 (expected gecode, gen49, gen64, 64-1)" >&2
        exit 2
        ;;
    esac
}

# run_one FILE CPU CONFIG: prints "CPU_S CONFLICTS" (conflicts "-" for CaDiCaL, "TO" on a
# time-out).
run_one() {
    local file=$1 cpu=$2 config=$3 rc=0 conflicts
    if [ "$config" = cadical ]; then
        "$BIN" encode --reduce "$file" -o "$WORK/p.cnf"
        (ulimit -t "$cpu"; /usr/bin/time -f "%U %S" -o "$WORK/time" cadical -q "$WORK/p.cnf" >/dev/null) || rc=$?
        [ $rc = 10 ] && conflicts=- || conflicts=TO
    else
        # shellcheck disable=SC2086
        (ulimit -t "$cpu"; /usr/bin/time -f "%U %S" -o "$WORK/time" "$BIN" solve --jobs 1 --stats $config "$file" >/dev/null 2>"$WORK/err") || rc=$?
        conflicts=$(grep -o 'conflicts=[0-9]*' "$WORK/err" | head -1 | cut -d= -f2 || true)
        [ $rc = 0 ] || conflicts=TO
    fi
    echo "$(tail -1 "$WORK/time" | awk -v to="$conflicts" -v cpu="$cpu" '{ printf "%.2f", to == "TO" ? cpu : $1 + $2 }') $conflicts"
}

echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| set | configuration | CPU s total | time-outs | per puzzle (CPU s/conflicts) |"
echo "|---|---|---:|---:|---|"
for set in "${SETS[@]}"; do
    make_set "$set"
    limit=${CPU:-30}
    [ "$set" = 64-1 ] && limit=${CPU:-120}
    for config in "${CONFIGS[@]}"; do
        if [ "$config" = cadical ] && ! command -v cadical >/dev/null; then
            echo "| $set | cadical | (not on PATH) | | |"
            continue
        fi
        total=0 timeouts=0 cells=""
        for file in "$WORK/$set"/*.txt; do
            read -r cpu conflicts < <(run_one "$file" "$limit" "$config")
            total=$(awk -v a="$total" -v b="$cpu" 'BEGIN { printf "%.2f", a + b }')
            [ "$conflicts" = TO ] && timeouts=$((timeouts + 1))
            cells="$cells $cpu/$conflicts"
        done
        echo "| $set | ${config:-default} | $total | $timeouts |$cells |"
    done
done
