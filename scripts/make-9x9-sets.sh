#!/usr/bin/env bash
# Makes the two 9×9 sets of benches/data with sudosat's own generator and grader, so that
# every puzzle shipped there is ours to redistribute (benches/data/README.md):
#   9x9/minimal-2k.txt  the first 2,000 minimal puzzles of at most 22 clues among 60,000
#                       minimal puzzles drawn with seed 2026 (`0` blanks)
#   9x9/expert-375.txt  the 375 that needed the most guesses (then the highest score) of
#                       4,000 puzzles graded expert, drawn with seed 2026, in the order drawn
# The same sudosat gives the same files on any machine and any number of cores.
#
# Usage, from the repository root: scripts/make-9x9-sets.sh [OUT]
#   OUT          the folder to write to (default benches/data/9x9)
#   SUDOSAT_BIN  directory of the sudosat binary to use (default: target/release, built
#                first with `cargo build --release`)
set -euo pipefail
[ $# -le 1 ] || { sed -n '2,/^set -/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2; }
case "${1:-}" in -h | --help) sed -n '2,/^set -/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;; esac
OUT=${1:-benches/data/9x9}
[ -f Cargo.toml ] || { echo "make-9x9-sets.sh: run it from the repository root" >&2; exit 2; }
if [ -z "${SUDOSAT_BIN:-}" ]; then
    cargo build --release --quiet
    SUDOSAT_BIN=target/release
fi
PATH="$(cd "$SUDOSAT_BIN" && pwd):$PATH"
export PATH
mkdir -p "$OUT"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# Minimal puzzles (no clue can go) with few clues: the generator removes clues at random
# until none can go, so most end with 23 to 25 clues; one in 26 or so ends with 22 or fewer.
sudosat generate --count 60000 --seed 2026 -q >"$WORK/minimal.txt"
awk '{ line = $0 } gsub(/[1-9]/, "&") <= 22 { print line; if (++kept == 2000) exit }' \
    "$WORK/minimal.txt" | tr . 0 >"$OUT/minimal-2k.txt"
[ "$(wc -l <"$OUT/minimal-2k.txt")" -eq 2000 ] || {
    echo "make-9x9-sets.sh: fewer than 2,000 puzzles of at most 22 clues" >&2
    exit 1
}

# Expert puzzles (the human strategies need guesses), the 375 that needed the most.
sudosat generate --count 4000 --grade expert --seed 2026 -q >"$WORK/expert.txt"
sudosat grade --csv "$WORK/expert.txt" >"$WORK/grades.csv" || true
# Columns: file,line,givens,solved,solutions,grade,score,hardest,guesses,…
awk -F, 'NR > 1 && $6 == "expert" && $5 == 1 { print $2, $9, $7 }' "$WORK/grades.csv" |
    sort -k2,2nr -k3,3nr -k1,1n | awk 'NR <= 375' | sort -k1,1n | cut -d' ' -f1 >"$WORK/picked"
awk 'NR == FNR { keep[$1] = 1; next } FNR in keep' "$WORK/picked" "$WORK/expert.txt" \
    >"$OUT/expert-375.txt"
[ "$(wc -l <"$OUT/expert-375.txt")" -eq 375 ] || {
    echo "make-9x9-sets.sh: fewer than 375 expert puzzles" >&2
    exit 1
}
# Every puzzle proper: the minimal ones minimal too.
sudosat check --minimal "$OUT/minimal-2k.txt" | awk 'END { print }'
sudosat count "$OUT/expert-375.txt" >"$WORK/counts" || {
    echo "make-9x9-sets.sh: a puzzle of expert-375.txt is not unique" >&2
    exit 1
}
echo "wrote $OUT/minimal-2k.txt and $OUT/expert-375.txt"
