#!/usr/bin/env bash
# Runs the parser fuzz driver (examples/fuzz.rs) on each target, then times 1 MiB inputs.
#
# Usage: scripts/fuzz.sh [CPU_SECONDS] [TARGET...]
#   CPU_SECONDS  CPU time per target (default 1800: the 30 minutes a release asks for;
#                CPU, not wall time, since the driver runs niced beside other work)
#   TARGET       grid dimacs minisat competition compressed (default: all five)
# Environment: SEED (default: the date), JOBS (targets run at once, default 1).
#
# Findings are saved under tests/fuzz/<target>/ as crash-*, hang-*, memory-*, slow-*;
# commit them with the fix: `cargo test --test fuzz_replay` replays every one.
# The driver runs niced, built with the `fuzz` profile (optimised, overflow checks on).
set -euo pipefail
cd "$(dirname "$0")/.."

SECONDS_PER_TARGET=${1:-1800}
shift || true
TARGETS=("${@:-grid dimacs minisat competition compressed}")
read -r -a TARGETS <<<"${TARGETS[*]}"
SEED=${SEED:-$(date +%s)}
JOBS=${JOBS:-1}

cargo build --profile fuzz --example fuzz
BIN=target/fuzz/examples/fuzz

status=0
running=0
for target in "${TARGETS[@]}"; do
    nice -n 19 "$BIN" "$target" --cpu-seconds "$SECONDS_PER_TARGET" --seed "$SEED" --out tests/fuzz &
    running=$((running + 1))
    if [ "$running" -ge "$JOBS" ]; then
        wait -n || status=1
        running=$((running - 1))
    fi
done
while [ "$running" -gt 0 ]; do
    wait -n || status=1
    running=$((running - 1))
done

# The ≤ 100 ms check: every corpus entry and saved finding repeated up to 1 MiB, the
# slowest parse of each target (of the grid target: of each format, one parse each).
"$BIN" --large --out tests/fuzz "${TARGETS[@]}"
exit $status
