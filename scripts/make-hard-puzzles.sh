#!/usr/bin/env bash
# Makes hard 25×25 puzzles with one solution, one a seed (examples/hard_puzzle: a random
# full grid cut to a minimal puzzle in a random order of its cells, then made sparser by
# moves that keep one solution, to 44 % given, as the Gecode puzzles of benches/data/hard
# are). Kissat 4.0.4 takes about 2 s on one (docs/benchmarks/hard.md, "Against Kissat 4
# on fresh puzzles"); making one takes one to fifteen minutes. The same seed gives the same
# puzzle on any machine where no uniqueness check reaches its 10 s limit.
#
# Usage, from the repository root: scripts/make-hard-puzzles.sh SEED COUNT [OUT]
#   SEED   the first seed; puzzle k comes from SEED + k
#   COUNT  how many puzzles
#   OUT    the file to write, one puzzle a line (default: standard output)
set -euo pipefail
usage() { sed -n '2,/^set -/p' "$0" | sed '$d; s/^# \{0,1\}//'; }
case "${1:-}" in -h | --help) usage; exit 0 ;; esac
[ $# -ge 2 ] && [ $# -le 3 ] || { usage >&2; exit 2; }
seed=$1 count=$2 out=${3:-}
[ -f Cargo.toml ] || { echo "make-hard-puzzles.sh: run it from the repository root" >&2; exit 2; }
cargo build --release --quiet --example hard_puzzle
make() { for ((k = 0; k < count; k++)); do target/release/examples/hard_puzzle $((seed + k)); done; }
if [ -n "$out" ]; then
    tmp=$(mktemp "$out.XXXXXX")
    make >"$tmp"
    mv "$tmp" "$out"
else
    make
fi
