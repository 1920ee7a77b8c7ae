#!/usr/bin/env python3
"""docs/benchmarks/playground.md, "Playground": the page's cdcl in a browser against the
native binary, and the size of the wasm file the page downloads.

Each set is solved both ways, alternated ROUNDS times in one run: `sudosat solve FILE
--threads 1 --jobs 1 --stats` (the release binary, one puzzle at a time on one thread as
the page solves them; the figure is the sum of its per-puzzle `total`,
encoding, solving and decoding) and the playground (the site `scripts/web.sh build` makes,
in Debian's Chromium, headless, driven by web/bench/solve.mjs: each puzzle sent to the
page's solving worker as the Solve button sends it, the figure the sum of the times the
worker measures around the library's call). The median of each; the ratio is the page's
over the binary's. Both sides report their conflicts: equal counts say the two ran the same
search, so the ratio is the cost of WebAssembly alone.

Beside the shipped sets, FRESH 9×9 puzzles made by `sudosat generate` with a seed drawn
when the benchmark runs (printed; SEED fixes it).

Needs node with web/node_modules (`npm ci` in web/) and /usr/bin/chromium (CHROMIUM).
Environment: ROUNDS (default 3), FRESH (default 300), SEED, SUDOSAT_DATA, BENCH_SITE (a
site already built: no build, as BENCH_BIN for the binary).
"""

import json
import os
import random
import re
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import BIN, ROOT, WORK, build, data, header, log, relative, run, show, table  # noqa: E402

ROUNDS = int(os.environ.get("ROUNDS", "3"))
FRESH = int(os.environ.get("FRESH", "300"))
SEED = int(os.environ.get("SEED", str(random.randrange(1, 2**31))))
SITE = Path(os.environ.get("BENCH_SITE", ROOT / "target" / "web"))
# The sets: (file, what the rows call it); the fresh set joins at the end.
SETS = [("hard/gecode-25x25-6.txt", "the 6 Gecode 25×25"),
        ("9x9/minimal-2k.txt", "2,000 minimal 9×9")]
# Where the page's cdcl should stand against the binary's.
TARGET = 2.0


def native(path):
    """Per-puzzle totals (seconds) and conflicts of `sudosat solve --threads 1 --stats`."""
    r = run([str(BIN), "solve", str(path), "--threads", "1", "--jobs", "1", "--stats", "-o",
             "/dev/null"],
            timeout=3600)
    if r.code != 0:
        sys.exit(f"sudosat solve {path} failed: {r.stderr.strip()[:300]}")
    totals, conflicts = [], []
    for line in r.stderr.splitlines():
        if line.startswith("stats:"):
            total = re.search(r" total=([0-9.]+)µs", line)
            conflict = re.search(r" conflicts=(\d+)", line)
            totals.append(float(total.group(1)) / 1e6)
            conflicts.append(int(conflict.group(1)) if conflict else None)
    return totals, conflicts


def browser(paths):
    """Per-puzzle times (seconds) and conflicts of the page's cdcl, for each file."""
    r = run(["node", str(ROOT / "web" / "bench" / "solve.mjs"), str(SITE), "cdcl",
             *map(str, paths)], timeout=7200)
    if r.code != 0:
        sys.exit(f"the browser side failed:\n{r.stderr.strip()[-800:]}")
    out = json.loads(r.stdout)
    return {Path(k): ([p["millis"] / 1e3 for p in v], [p["conflicts"] for p in v])
            for k, v in out.items()}


def fresh_set():
    path = WORK / f"web-fresh-{SEED}.txt"
    r = run([str(BIN), "generate", "--count", str(FRESH), "--seed", str(SEED), "-o", str(path)],
            timeout=3600)
    if r.code != 0:
        sys.exit(f"sudosat generate failed: {r.stderr.strip()[:300]}")
    return path


def main():
    build()
    if "BENCH_SITE" not in os.environ:
        log("web: scripts/web.sh build")
        subprocess.run([str(ROOT / "scripts" / "web.sh"), "build", str(SITE)], check=True,
                       stdout=sys.stderr)
    sets = [(data(name), label) for name, label in SETS]
    fresh = fresh_set()
    sets.append((fresh, f"{FRESH} fresh 9×9 (seed {SEED})"))
    header([f"ROUNDS={ROUNDS} SEED={SEED}", "scripts/web.sh build target/web",
            f"{show([str(BIN), 'generate', '--count', str(FRESH), '--seed', str(SEED)])} "
            f"-o {relative(fresh)}"]
           + [f"{show([str(BIN), 'solve', relative(p), '--threads', '1', '--jobs', '1', '--stats'])} "
              "-o /dev/null" for p, _ in sets]
           + ["node web/bench/solve.mjs target/web cdcl "
              + " ".join(relative(p) for p, _ in sets)])

    times = {p: {"native": [], "page": []} for p, _ in sets}
    same = {p: True for p, _ in sets}
    for k in range(ROUNDS):
        log(f"web: round {k + 1} of {ROUNDS}")
        for path, _ in sets:
            totals, conflicts = native(path)
            times[path]["native"].append(sum(totals))
            times[path]["conflicts"] = conflicts
        for path, (page_times, page_conflicts) in browser([p for p, _ in sets]).items():
            times[path]["page"].append(sum(page_times))
            same[path] &= page_conflicts == times[path]["conflicts"]

    rows = []
    for path, label in sets:
        n, p = (statistics.median(times[path][side]) for side in ("native", "page"))
        ratio = p / n
        rows.append([label, f"{n:.3f} s", f"{p:.3f} s", f"{ratio:.2f}",
                     "yes" if same[path] else "no", "met" if ratio <= TARGET else "missed"])
    print(f"The page's cdcl against `sudosat solve --threads 1 --jobs 1` (the default "
          f"encoding, backend and root reasoning on both sides; the sums of the per-puzzle "
          f"times), median of {ROUNDS} alternated rounds; target: within {TARGET:g}× of "
          "the binary:")
    print()
    table(["set", "native", "in the browser", "ratio", "same conflicts", "target"], rows)

    size = subprocess.run([str(ROOT / "scripts" / "web.sh"), "size", str(SITE)],
                          capture_output=True, text=True)
    m = re.search(r": (\d+) bytes, (\d+) gzip -9 \(budget (\d+)\)", size.stdout)
    if not m:
        sys.exit(f"scripts/web.sh size: {size.stdout}{size.stderr}")
    raw, gz, budget = map(int, m.groups())
    print()
    print("The wasm file the page downloads (`scripts/web.sh size`, which fails over the "
          "budget; `.ci/run` runs it):")
    print()
    table(["file", "bytes", "gzip -9", "budget (gzip -9)"],
          [["pkg/sudosat_web_bg.wasm", f"{raw:,}", f"{gz:,}", f"{budget:,}"]])


if __name__ == "__main__":
    main()
