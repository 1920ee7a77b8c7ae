#!/usr/bin/env bash
# Regenerates the benchmark tables: each SECTION's script (scripts/bench/SECTION.py) prints
# its Markdown, which replaces what stands between `<!-- begin: SECTION -->` and
# `<!-- end: SECTION -->` in the one file that holds them (a page of docs/benchmarks/, or
# BENCHMARKS.md; scripts/bench/markers.py finds it, and a section found in no file or in
# two is an error before anything is measured); the prose around the markers stays. A
# section whose script fails keeps its old table, and the run exits 1.
#
# Then, in every run, scripts/bench/headlines.py fills BENCHMARKS.md's headline tables
# (`<!-- begin: headline-NAME -->`) with rows and columns of the pages' tables, as its list
# says; it only reads the pages, so `scripts/benchmarks.sh headlines` measures nothing and
# brings the map in line with them.
#
# Usage: scripts/benchmarks.sh [SECTION...]
#   SECTION  encoding nine stages hard theory large root sweep sweep-wide embedded cadical kissat fresh
#            ablation ksat proofs parsing memory afl fuzzing python web, or headlines alone
#            (default: all but sweep, sweep-wide, cadical, kissat, fresh, ablation, fuzzing, python and
#            web, over an hour on 2 cores, theory and root about half an hour each;
#            kissat and fresh need scripts/build-peers.sh and take hours, as sweep
#            does; fuzzing builds the `fuzz`
#            profile first, which takes a while the first time; python needs the module
#            installed: `pip install ./python`; web needs node, web/node_modules (`npm ci`
#            in web/) and Debian's chromium)
# Environment: each script's own (see its docstring), e.g. TDOKU_SOLVE and DRAT_TRIM for
# the peers, SUDOSAT_DATA for another data folder (default benches/data).
#
# A new section is a script in scripts/bench/ and a pair of markers on its page; a new
# column or row is an entry in the script's list at its top; a new headline is an entry of
# headlines.py's list and a pair of markers in BENCHMARKS.md.
set -euo pipefail
cd "$(dirname "$0")/.."

SECTIONS=("$@")
[ ${#SECTIONS[@]} -eq 0 ] && SECTIONS=(encoding nine stages hard theory large root embedded ksat proofs parsing memory)
status=0
for section in "${SECTIONS[@]}"; do
    # The headlines follow every run, after the sections they are picked from.
    [ "$section" = headlines ] && continue
    script=scripts/bench/$section.py
    if [ ! -f "$script" ]; then
        echo "benchmarks: no section $section ($script)" >&2
        status=1
        continue
    fi
    page=$(python3 scripts/bench/markers.py where "$section") || {
        status=1
        continue
    }
    out=$(mktemp)
    echo "benchmarks: $section ($page)" >&2
    if python3 "$script" >"$out"; then
        python3 scripts/bench/markers.py put "$section" "$out" >/dev/null || status=1
    else
        echo "benchmarks: $section failed; its table is unchanged" >&2
        status=1
    fi
    rm -f "$out"
done
echo "benchmarks: headlines (BENCHMARKS.md)" >&2
python3 scripts/bench/headlines.py || status=1
exit $status
