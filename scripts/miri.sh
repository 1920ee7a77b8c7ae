#!/usr/bin/env bash
# Undefined-behaviour check of the unsafe code in cdcl (unchecked indexing, the trail's
# spare-capacity writes in propagation, raw clause slices) under Miri, on the unit tests
# small enough for its interpreter (minutes each, not hours). Not part of CI: it needs a
# nightly toolchain with Miri (`rustup component add miri rust-src --toolchain nightly`).
#
# Usage: scripts/miri.sh [TEST_FILTER...]
#   default: the cdcl tests that reach propagation, conflict analysis, minimisation,
#   shrinking, assumptions and blocking clauses on small formulas.
set -euo pipefail
cd "$(dirname "$0")/.."

TESTS=("${@:-backend::cdcl::tests::luby backend::cdcl::tests::a_long_clause backend::cdcl::tests::assumptions_give backend::cdcl::tests::binary_resolution backend::cdcl::tests::counts_solutions}")
read -r -a TESTS <<<"${TESTS[*]}"

status=0
for test in "${TESTS[@]}"; do
    # Isolation off: the solver reads the clock for its time limits.
    MIRIFLAGS="-Zmiri-disable-isolation" cargo +nightly miri test --lib \
        --target-dir target/miri -- "$test" || status=1
done
exit $status
