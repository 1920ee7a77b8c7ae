#!/usr/bin/env bash
# Coverage-guided fuzzing of the parsers with AFL++ (fuzz/afl, its own package), one
# target at a time, beside the stable mutation driver of scripts/fuzz.sh.
#
# Needs: `cargo install cargo-afl` (builds AFL++'s runtime on first use: `cargo afl config
# --build`); Debian's `afl++` package is enough for afl-fuzz but cargo-afl brings its own.
#
# Usage: scripts/afl.sh [SECONDS] [TARGET...]
#   SECONDS  wall time per target (default 1800)
#   TARGET   grid dimacs minisat competition compressed (default: all five)
#
# Seeds: tests/fuzz/<target>/corpus. AFL's state goes to target/afl/<target>/; crashes
# and hangs are copied to tests/fuzz/<target>/crash-afl-* / hang-afl-*, which
# `cargo test --test fuzz_replay` replays through the same parsers.
set -euo pipefail
cd "$(dirname "$0")/.."

SECONDS_PER_TARGET=${1:-1800}
shift || true
TARGETS=("${@:-grid dimacs minisat competition compressed}")
read -r -a TARGETS <<<"${TARGETS[*]}"

(cd fuzz/afl && cargo afl build --release)
export AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1

status=0
for target in "${TARGETS[@]}"; do
    out=target/afl/$target
    mkdir -p "$out"
    # -V: stop after SECONDS; -t: 1 s a run (the driver's budget is 100 ms a MiB).
    nice -n 19 cargo afl fuzz -V "$SECONDS_PER_TARGET" -t 1000 \
        -i "tests/fuzz/$target/corpus" -o "$out" "fuzz/afl/target/release/$target" \
        >"$out/log.txt" 2>&1 || status=1
    stats=$out/default/fuzzer_stats
    if [ -f "$stats" ]; then
        grep -E '^(run_time|execs_done|execs_per_sec|corpus_count|bitmap_cvg|saved_crashes|saved_hangs) ' "$stats" |
            sed "s/^/$target: /"
    fi
    for kind in crash hang; do
        for f in "$out"/default/"${kind/crash/crashe}s"/id:*; do
            [ -e "$f" ] || continue
            saved=tests/fuzz/$target/$kind-afl-$(cksum <"$f" | cut -d' ' -f1)
            cp "$f" "$saved"
            echo "$target: $kind saved as $saved"
            status=1
        done
    done
done
exit $status
