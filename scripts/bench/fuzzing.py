#!/usr/bin/env python3
"""docs/benchmarks/fuzzing.md, "Fuzzing": a short run of the parser fuzz driver on every
target, and the slowest 1 MiB input of each parser.

`examples/fuzz.rs`, built with the `fuzz` profile (optimised, overflow checks and debug
assertions on), mutates the seed corpus of `tests/fuzz/<target>/corpus`; findings go to
target/bench/fuzz, not into the repository (`scripts/fuzz.sh` is the long run that
saves them under tests/fuzz). The 1 MiB inputs repeat every corpus entry and saved finding
to a mebibyte and time one parse each, in CPU time.

Environment: CPU_SECONDS (per target, default 30), SEED (default 1).
"""

import os
import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import ROOT, WORK, header, log, run, show, table  # noqa: E402

CPU_SECONDS = os.environ.get("CPU_SECONDS", "30")
SEED = os.environ.get("SEED", "1")
TARGETS = ["grid", "dimacs", "minisat", "competition", "compressed"]


def main():
    subprocess.run(["cargo", "build", "--profile", "fuzz", "--example", "fuzz", "-j", "1", "--quiet"], cwd=ROOT,
                   check=True)
    driver = ROOT / "target" / "fuzz" / "examples" / "fuzz"
    out = WORK / "fuzz"
    runs = {t: [str(driver), t, "--cpu-seconds", CPU_SECONDS, "--seed", SEED, "--out", str(out)] for t in TARGETS}
    large = [str(driver), "--large"]
    header(["cargo build --profile fuzz --example fuzz"] + [show(c) for c in runs.values()] + [show(large)])

    rows = []
    for target, command in runs.items():
        log(f"fuzzing: {show(command)}")
        r = run(command, timeout=float(CPU_SECONDS) * 4 + 120)
        m = re.search(rf"^{target}: (\d+) runs in (\d+) s wall, (\d+) s CPU.*?(\d+) outcome classes", r.stdout, re.M)
        findings = re.search(r"^findings: (\d+)", r.stdout, re.M)
        if not m:
            sys.exit(f"{show(command)}: no summary line\n{r.stdout[-500:]}{r.stderr[-500:]}")
        rows.append([target, f"{int(m.group(1)):,}", f"{m.group(3)} s", f"{int(m.group(4)):,}",
                     findings.group(1) if findings else "?"])
    print(f"This run: {CPU_SECONDS} CPU seconds a target, seed {SEED}:")
    print()
    table(["target", "inputs", "CPU", "outcome classes", "findings"], rows)

    log("fuzzing: --large")
    r = run(large, timeout=1200)
    rows = []
    for line in r.stdout.splitlines():
        m = re.match(r"(.+?): (\d+) inputs of 1 MiB, slowest ([\d.]+) ms CPU \(([\d.]+) ms wall, from (.*)\)$", line)
        if m:
            rows.append([m.group(1), m.group(2), f"{m.group(3)} ms", f"{m.group(4)} ms",
                         "`" + m.group(5).strip('"').replace("|", "\\|").replace("`", "'")[:30] + "`"])
    print("1 MiB inputs, one parse each; the slowest input of each parser (the budget the "
          "driver enforces is 100 ms of CPU a MiB):")
    print()
    table(["parser", "inputs", "slowest, CPU", "wall", "slowest input starts"], rows, right=[1, 2, 3])


if __name__ == "__main__":
    main()
