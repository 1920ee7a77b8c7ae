#!/usr/bin/env bash
# Makes the generated grids of benches/data/large (100×100 to 400×400) with sudosat's own tools, so that
# "auto" root reasoning is measured on grids of every kind it touches
# (docs/benchmarks/large.md, "Root reasoning"), xz-compressed (sudosat reads them as they
# are):
#   unique-225-S, unique-400-S   one solution: examples/large_puzzle removes the givens of a
#                                permuted pattern grid in batches, in a random order, while
#                                the root fixpoint still settles the puzzle (seeds S = 1, 2
#                                and 1…4; about 72 % and 76 % given)
#   several-225-80, several-400-80-S
#                                several solutions: `sudosat generate --no-unique` removes
#                                20 % of a permuted pattern grid's givens at random (seeds 1;
#                                1, 2); the search solves them in a second
#   several-400-62, several-400-75
#                                the same with 62.5 % and 75 % given (seeds 21, 22): no solver
#                                measured here finds a solution of either in minutes
#   search-100-68, search-144-72
#                                one solution: cells blanked in a random order while a check
#                                proves one solution is left
#                                (scripts/sweep-grid.sh, the sweep's seed 470840371); a
#                                method that knows nothing of the fixpoint
# The same sudosat gives the same files on any machine, but for the search's checks, which
# stop at 10 s each. The unique-* grids were made by an earlier large_puzzle, whose batches
# differed: the fixpoint method of today makes other grids of the same kind from those seeds.
#
# Usage, from the repository root: scripts/make-large-grids.sh [OUT]
#   OUT  the folder to write to (default benches/data/large)
set -euo pipefail
[ $# -le 1 ] || { sed -n '2,/^set -/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2; }
case "${1:-}" in -h | --help) sed -n '2,/^set -/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;; esac
OUT=${1:-benches/data/large}
[ -f Cargo.toml ] || { echo "make-large-grids.sh: run it from the repository root" >&2; exit 2; }
cargo build --release --quiet --example large_puzzle
cargo build --release --quiet
BIN=target/release
mkdir -p "$OUT"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

unique() { # BOX SEED NAME: blanked while the root fixpoint settles the puzzle, to 60 %
    "$BIN/examples/large_puzzle" "$1" fixpoint "$2" "$WORK" 0.60 >&2
    xz -9 -c "$WORK/fixpoint-$(($1 * $1))-60-$2.txt" >"$OUT/$3.txt.xz"
}
searched() { # SIDE SEED PERCENT NAME: blanked while a search proves one solution
    scripts/sweep-grid.sh "$1" search "$2" "$3" "$WORK" >&2
    xz -9 -c "$WORK/search-$1-$3-$2.txt" >"$OUT/$4.txt.xz"
}
several() { # BOX CLUES SEED NAME
    "$BIN/sudosat" generate --size "$1" --clues "$2" --no-unique --seed "$3" -q --to grid \
        -o "$WORK/$4.txt"
    xz -9 -c "$WORK/$4.txt" >"$OUT/$4.txt.xz"
}

unique 15 1 unique-225-1
unique 15 2 unique-225-2
for s in 1 2 3 4; do unique 20 "$s" "unique-400-$s"; done
several 15 40500 1 several-225-80
several 20 128000 1 several-400-80-1
several 20 128000 2 several-400-80-2
several 20 100000 21 several-400-62
several 20 120000 22 several-400-75
searched 100 470840371 68 search-100-68
searched 144 470840371 72 search-144-72
