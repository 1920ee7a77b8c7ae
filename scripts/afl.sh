#!/usr/bin/env bash
# Coverage-guided fuzzing with AFL++ (fuzz/afl, its own package), one target at a time on
# one core, beside the stable mutation driver of scripts/fuzz.sh.
#
# Installs what it lacks: cargo-afl (`cargo install cargo-afl`, about 1.5 minutes) and
# AFL++ built for this toolchain (`cargo afl config --build`; needs make and a C
# compiler). Debian's `afl++` package is not needed: cargo-afl brings its own.
#
# Usage: scripts/afl.sh [SECONDS] [TARGET...]
#   SECONDS  wall time per target (default 1800)
#   TARGET   grid dimacs minisat competition compressed differential csv (default: all)
#
# Seeds: tests/fuzz/<target>/corpus. AFL's state goes to target/afl/<target>/. After each
# run afl-cmin minimises the queue (the seeds with it) and writes it back to the corpus:
# the hand-written seeds keep their names and stay even when cmin finds them redundant
# (the replay test checks that they are valid input); what AFL found and cmin kept is
# added as afl-<cksum>. Crashes and hangs are copied to tests/fuzz/<target>/crash-afl-* /
# hang-afl-*, which `cargo test --test fuzz_replay` replays through the same code. One
# line per target goes to target/afl/results.tsv; `scripts/benchmarks.sh afl` makes the
# table of docs/benchmarks/fuzzing.md, "Coverage-guided (AFL++)", from the runs' statistics.
set -euo pipefail
cd "$(dirname "$0")/.."

SECONDS_PER_TARGET=${1:-1800}
shift || true
TARGETS=("${@:-grid dimacs minisat competition compressed differential csv}")
read -r -a TARGETS <<<"${TARGETS[*]}"

if ! cargo afl --version >/dev/null 2>&1; then
    echo "afl.sh: installing cargo-afl" >&2
    cargo install --locked cargo-afl
fi
# Builds AFL++ for this toolchain once (a few minutes); later calls say it is built.
if ! config=$(cargo afl config --build 2>&1); then
    grep -q 'already built' <<<"$config" || {
        echo "$config" >&2
        exit 1
    }
fi

(cd fuzz/afl && cargo afl build --release -j 1)
# AFL++'s tools beside afl-fuzz. Its Python afl-cmin (4.40c) records no coverage from these
# targets in batch mode; the shell one does, so that one is used.
AFL_PATH=$( (cargo afl fuzz -h 2>&1 || true) | sed -n 's|^\(/.*\)/afl-fuzz \[.*|\1|p')
[ -x "$AFL_PATH/afl-cmin.bash" ] || {
    echo "afl.sh: cannot find afl-cmin.bash beside afl-fuzz" >&2
    exit 1
}
export AFL_PATH
# No pinning to a core: on a shared machine AFL may find none free and refuse to start.
export AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1 AFL_NO_AFFINITY=1

results=target/afl/results.tsv
mkdir -p target/afl
[ -f "$results" ] ||
    printf 'target\tseconds\texecs\texecs_per_sec\tedges\ttotal_edges\tcrashes\thangs\tcorpus\n' >"$results"

status=0
for target in "${TARGETS[@]}"; do
    out=target/afl/$target
    corpus=tests/fuzz/$target/corpus
    rm -rf "$out"
    mkdir -p "$out"
    # The revision fuzzed, for the table of scripts/bench/afl.py.
    git rev-parse --short HEAD >"$out/revision" 2>/dev/null || true
    binary=fuzz/afl/target/release/$target
    # -V: stop after SECONDS; -t: 1 s a run (the driver's budget is 100 ms a MiB).
    nice -n 19 cargo afl fuzz -V "$SECONDS_PER_TARGET" -t 1000 \
        -i "$corpus" -o "$out" "$binary" >"$out/log.txt" 2>&1 || status=1
    stats=$out/default/fuzzer_stats
    if [ ! -f "$stats" ]; then
        echo "$target: afl-fuzz wrote no statistics; see $out/log.txt" >&2
        status=1
        continue
    fi
    field() { sed -n "s/^$1 *: *//p" "$stats"; }

    # Minimise the queue and write it back: seeds by their names, finds as afl-<cksum>.
    min=$out/cmin
    nice -n 19 "$AFL_PATH/afl-cmin.bash" -t 1000 -i "$out/default/queue" -o "$min" \
        -- "$binary" >"$out/cmin.txt" 2>&1 || status=1
    find "$corpus" -maxdepth 1 -type f -name 'afl-*' -delete
    for f in "$min"/*; do
        [ -f "$f" ] || continue
        name=$(basename "$f")
        # AFL trims its queue entries, the seeds among them: a hand-written seed keeps its
        # name and its text; an earlier find, like a new one, is named by its content.
        case $name in
        *orig:afl-*) ;;
        *orig:*)
            [ -e "$corpus/${name##*orig:}" ] || cp "$f" "$corpus/${name##*orig:}"
            continue
            ;;
        esac
        cp "$f" "$corpus/afl-$(cksum <"$f" | cut -d' ' -f1)"
    done
    files=$(find "$corpus" -maxdepth 1 -type f | wc -l)

    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$target" "$(field run_time)" \
        "$(field execs_done)" "$(field execs_per_sec)" "$(field edges_found)" \
        "$(field total_edges)" "$(field saved_crashes)" "$(field saved_hangs)" "$files" \
        | tee -a "$results"
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
