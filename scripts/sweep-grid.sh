#!/usr/bin/env bash
# Makes one grid of the root-reasoning sweep again from its seed
# (docs/benchmarks/large.md, "Root reasoning on grids made for the sweep"):
# examples/large_puzzle with the sweep's given shares from 80 % down to PERCENT, in steps
# of 4, so that the blanking takes the same path as in the sweep. The search method's
# checks stop at 10 s each, so a much slower machine can make another grid from the same
# seed.
#
# Usage, from the repository root: scripts/sweep-grid.sh SIDE METHOD SEED PERCENT [OUT]
#   SIDE     64, 100, 144, 225 or 400
#   METHOD   search, fixpoint or random
#   SEED     the seed the sweep printed
#   PERCENT  the given share, 80, 76, …, 60
#   OUT      the folder to write METHOD-SIDE-PERCENT-SEED.txt to (default target/bench/sweep)
set -euo pipefail
usage() { sed -n '2,/^set -/p' "$0" | sed '$d; s/^# \{0,1\}//'; }
case "${1:-}" in -h | --help) usage; exit 0 ;; esac
[ $# -ge 4 ] && [ $# -le 5 ] || { usage >&2; exit 2; }
side=$1 method=$2 seed=$3 percent=$4 out=${5:-target/bench/sweep}
box=0
for b in 8 10 12 15 20; do [ $((b * b)) -eq "$side" ] && box=$b; done
[ "$box" -ne 0 ] || { echo "sweep-grid.sh: SIDE is 64, 100, 144, 225 or 400, not $side" >&2; exit 2; }
shares=()
for p in 80 76 72 68 64 60; do
    [ "$p" -ge "$percent" ] && shares+=("0.$p")
done
[ "${shares[-1]}" = "0.$percent" ] || { echo "sweep-grid.sh: PERCENT is one of 80, 76, …, 60" >&2; exit 2; }
[ -f Cargo.toml ] || { echo "sweep-grid.sh: run it from the repository root" >&2; exit 2; }
cargo build --release --quiet --example large_puzzle
mkdir -p "$out"
target/release/examples/large_puzzle "$box" "$method" "$seed" "$out" "${shares[@]}"
