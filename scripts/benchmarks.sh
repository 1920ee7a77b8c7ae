#!/usr/bin/env bash
# Regenerates the tables of BENCHMARKS.md: each SECTION's script (scripts/bench/SECTION.py)
# prints its Markdown, which replaces what stands between `<!-- begin: SECTION -->` and
# `<!-- end: SECTION -->`; the prose around the markers stays. A section whose script
# fails keeps its old table, and the run exits 1.
#
# Usage: scripts/benchmarks.sh [SECTION...]
#   SECTION  encoding nine stages hard theory large root sweep embedded cadical kissat fresh
#            ablation ksat proofs parsing memory afl fuzzing python web (default: all but
#            sweep, cadical, kissat, fresh, ablation, fuzzing, python and web, about 30
#            minutes of CPU on 2 cores; kissat and fresh need scripts/build-peers.sh and
#            take hours, as sweep does; fuzzing builds the `fuzz` profile first, which takes
#            a while the first time; python needs the module installed: `pip install
#            ./python`; web needs node, web/node_modules (`npm ci` in web/) and Debian's
#            chromium)
# Environment: each script's own (see its docstring), e.g. TDOKU_SOLVE and DRAT_TRIM for
# the peers, SUDOSAT_DATA for another data folder (default benches/data).
#
# A new section is a script in scripts/bench/ and a pair of markers in BENCHMARKS.md; a new
# column or row is an entry in the script's list at its top.
set -euo pipefail
cd "$(dirname "$0")/.."

SECTIONS=("$@")
[ ${#SECTIONS[@]} -eq 0 ] && SECTIONS=(encoding nine stages hard theory large root embedded ksat proofs parsing memory)
status=0
for section in "${SECTIONS[@]}"; do
    script=scripts/bench/$section.py
    if [ ! -f "$script" ]; then
        echo "benchmarks: no section $section ($script)" >&2
        status=1
        continue
    fi
    grep -q "<!-- begin: $section -->" BENCHMARKS.md || {
        echo "benchmarks: BENCHMARKS.md has no markers for $section" >&2
        status=1
        continue
    }
    out=$(mktemp)
    echo "benchmarks: $section" >&2
    if python3 "$script" >"$out"; then
        python3 - "$section" "$out" <<'PY'
import sys
section, out = sys.argv[1], sys.argv[2]
begin, end = f"<!-- begin: {section} -->", f"<!-- end: {section} -->"
text = open("BENCHMARKS.md").read()
head, rest = text.split(begin, 1)
_, tail = rest.split(end, 1)
body = open(out).read().strip()
open("BENCHMARKS.md", "w").write(f"{head}{begin}\n{body}\n{end}{tail}")
PY
    else
        echo "benchmarks: $section failed; its table is unchanged" >&2
        status=1
    fi
    rm -f "$out"
done
exit $status
