#!/usr/bin/env bash
# Redraws every example report in benches/reports from the rows it holds (runs.csv and its
# sidecar runs.meta.json) with `sudosat compare --from-csv`: nothing is measured again, so
# the figures stay those of the measuring run while the page, plots, summary and JSON
# follow the current sudosat. Each report keeps its grouping (`--by`, read from its
# report.json). Then cuts the cactus plot of minimal-200 out of its page into
# benches/reports/cactus-minimal-200.svg, the picture the README shows.
#
# Usage, from the repository root: scripts/redraw-reports.sh
#   SUDOSAT_BIN  directory of the sudosat binary to use (default: target/release, built
#                first with `cargo build --release`)
#
# Every path given to sudosat is relative to the repository root and the binary is called
# by its name, `sudosat`, so the command a report records as "Redrawn from saved rows by"
# holds no path of this machine. The script ends with an error when a report still holds
# an absolute path.
set -euo pipefail
[ $# -eq 0 ] || { sed -n '2,/^set -/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2; }
[ -d benches/reports ] && [ -f Cargo.toml ] || {
    echo "redraw-reports.sh: run it from the repository root" >&2
    exit 2
}
if [ -z "${SUDOSAT_BIN:-}" ]; then
    cargo build --release --quiet
    SUDOSAT_BIN=target/release
fi
PATH="$(cd "$SUDOSAT_BIN" && pwd):$PATH"
export PATH

for report in benches/reports/*/; do
    report=${report%/}
    [ -f "$report/runs.csv" ] || continue
    by=()
    group=$(sed -n 's/^  "group_by": "\([a-z]*\)",\{0,1\}$/\1/p' "$report/report.json" 2>/dev/null || true)
    [ -n "$group" ] && by=(--by "$group")
    sudosat compare -q --from-csv "$report/runs.csv" "${by[@]}" --report "$report" >/dev/null
    echo "redrew $report"
done

# The <svg> inside <figure id="cactus">, on its own.
awk '
    /<figure id="cactus">/ { on = 1; sub(/.*<figure id="cactus">/, "") }
    on && index($0, "</svg>") { print substr($0, 1, index($0, "</svg>") + 5); exit }
    on { print }
' benches/reports/minimal-200/index.html >benches/reports/cactus-minimal-200.svg
echo "cut benches/reports/cactus-minimal-200.svg"

# An absolute path: a `/` that starts a word and names a folder.
if grep -rlE "(^|[[:space:]\"'=(])/[[:alnum:]_.-]+/[[:alnum:]_.-]" benches/reports; then
    echo "redraw-reports.sh: the files above hold an absolute path (a path of this machine)" >&2
    exit 1
fi
# A path out of the clone: the rows' paths are relative to the repository root, where the
# measuring ran, so a word that starts `../` leaves it (tests/doc_links.rs checks the same).
if grep -rlE "(^|[[:space:]\"'=(,>])\.\./" benches/reports; then
    echo "redraw-reports.sh: the files above hold a path outside the clone (measure on benches/data)" >&2
    exit 1
fi
