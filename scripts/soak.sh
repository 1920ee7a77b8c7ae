#!/usr/bin/env bash
# The soak test: random puzzles 4×4…25×25 (solvable, unsolvable, several solutions)
# through every SAT backend (each encoding in turn; minisat and the externals found on
# PATH on every 10th puzzle) and every complete classic solver, all answers checked
# against the rules, the givens, each other and the Dancing Links solution count
# (examples/soak.rs). Each solve has a 500 ms limit; reaching it is a time-out, counted.
# The default mix (55/42/2.5/0.5 % of 4×4/9×9/16×16/25×25) runs 100,000 puzzles in
# about an hour of one core.
#
# Usage: scripts/soak.sh [PUZZLES] [SECONDS]
#   PUZZLES  default 100000
#   SECONDS  stop after this long, reporting how many puzzles ran (default: no limit)
# Environment: SEED (default 1), EVERY (progress line every N puzzles, default 1000),
# MIX (relative weights, default 550,420,25,5), TIMEOUT_MS (default 500), ONLY (solver names,
# comma-separated, e.g. sat/cdcl,dlx: a quick re-run after a change to one solver).
# Exits 1 on any disagreement, printing the puzzle.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo build --release --example soak
exec nice -n 19 target/release/examples/soak --puzzles "${1:-100000}" --seed "${SEED:-1}" \
    --seconds "${2:-18446744073709551615}" --every "${EVERY:-1000}" --mix "${MIX:-550,420,25,5}" \
    --timeout-ms "${TIMEOUT_MS:-500}" ${ONLY:+--only "$ONLY"}
