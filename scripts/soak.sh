#!/usr/bin/env bash
# The soak test: random puzzles 4×4…25×25 (solvable, unsolvable, several solutions)
# through every SAT backend (each encoding in turn; externals found on PATH) and every
# complete classic solver, all answers checked against the rules, the givens and the
# Dancing Links solution count (examples/soak.rs).
#
# Usage: scripts/soak.sh [PUZZLES] [SECONDS]
#   PUZZLES  default 100000
#   SECONDS  stop after this long, reporting how many puzzles ran (default: no limit)
# Environment: SEED (default 1).
# Exits 1 on any disagreement, printing the puzzle.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo build --release --example soak
exec nice -n 19 target/release/examples/soak --puzzles "${1:-100000}" --seed "${SEED:-1}" \
    --seconds "${2:-18446744073709551615}"
