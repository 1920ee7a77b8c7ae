#!/usr/bin/env python3
"""docs/benchmarks/fuzzing.md, "Coverage-guided (AFL++)": the last `scripts/afl.sh` run of
each target, as AFL++ left it in target/afl/TARGET (its fuzzer_stats, and the revision
afl.sh fuzzed), with the corpus committed in tests/fuzz/TARGET/corpus. Runs nothing itself:
the runs take 30 minutes a target on a core of their own, so they are made apart from the
timed sections.
"""

import datetime
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import ROOT, table  # noqa: E402

TARGETS = ["grid", "dimacs", "minisat", "competition", "compressed", "differential", "csv"]


def stats(target):
    path = ROOT / "target" / "afl" / target / "default" / "fuzzer_stats"
    if not path.exists():
        return None
    fields = {}
    for line in path.read_text().splitlines():
        key, _, value = line.partition(":")
        fields[key.strip()] = value.strip()
    revision = ROOT / "target" / "afl" / target / "revision"
    fields["revision"] = revision.read_text().strip() if revision.exists() else "–"
    return fields


def main():
    rows = []
    versions = set()
    for target in TARGETS:
        s = stats(target)
        corpus = ROOT / "tests" / "fuzz" / target / "corpus"
        files = [f.name for f in corpus.iterdir() if f.is_file()] if corpus.is_dir() else []
        found = sum(1 for f in files if f.startswith("afl-"))
        if s is None:
            rows.append([target, "not run in full yet"] + [""] * 6 + [f"{len(files)} ({len(files) - found} + {found})"])
            continue
        versions.add(s.get("afl_version", "?").lstrip("+"))
        when = datetime.datetime.fromtimestamp(int(s["last_update"]), datetime.timezone.utc)
        edges, total = int(s["edges_found"]), int(s["total_edges"])
        rows.append([target, when.strftime("%Y-%m-%d %H:%M") + f", {s['revision']}", s["run_time"],
                     f"{int(s['execs_done']):,}", f"{float(s['execs_per_sec']):,.0f}",
                     f"{edges} / {total} ({100 * edges / total:.1f} %)", s["saved_crashes"],
                     s["saved_hangs"], f"{len(files)} ({len(files) - found} + {found})"])
    print(f"`scripts/afl.sh 1800 TARGET`, one target at a time on one core, AFL++ "
          f"{', '.join(sorted(versions)) or '–'} (cargo-afl); each row is the target's last run, "
          f"ended at the date given (UTC) on the revision given:")
    print()
    table(["target", "ended, revision", "seconds", "execs", "execs/s", "edges (found / map)",
           "crashes", "hangs", "corpus files (seeds + AFL)"], rows)


if __name__ == "__main__":
    main()
