#!/usr/bin/env python3
"""docs/benchmarks/solvers.md, "CaDiCaL 1.9.5 and 3.0.1": what the upgrade of the embedded
CaDiCaL changed, both in process (`sudosat solve --backend cadical`), on the shipped 9×9
sets, on isomorphic draws of the hard 25×25 puzzles and on the large grids.

The 1.9.5 build is the revision before the upgrade (OLD_REV, default: the parent of the
commit that replaced the `cadical` crate), built from `git archive` in its own target
folder (target/cadical-1.9.5/), so both binaries stay at hand. One run: every instance is
solved by both builds one after the other, the order alternating from one instance to the
next (ABBA), and each solve is timed by its CPU time (user + system of the process, from
wait4), which another engineer's build on the same machine moves less than wall time. A
9×9 instance is a chunk of CHUNK puzzles of a set (one process per chunk, so that a
process's start counts for little); a hard one is one puzzle; a large one is one grid.
The hard draws are isomorphs made by scripts/isomorphs.py with a seed drawn when the run
starts (printed; SEED=N repeats a draw).

Environment: OLD_REV, CHUNK (9×9 puzzles a process, default 125), COPIES (hard puzzles a
Gecode puzzle: the original and COPIES-1 isomorphs, default 2), SEED, TIMEOUT (CPU
seconds a solve, default 60), SIZES (large grids, default "16 25 64 81 100 144"),
SUDOSAT_DATA (default benches/data).
"""

import os
import random
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import BIN, ROOT, WORK, build, data, header, log, run, seconds, show, table  # noqa: E402

CHUNK = int(os.environ.get("CHUNK", "125"))
COPIES = int(os.environ.get("COPIES", "2"))
SEED = int(os.environ.get("SEED", str(random.SystemRandom().randrange(1, 1 << 31))))
TIMEOUT = float(os.environ.get("TIMEOUT", "60"))
SIZES = [int(n) for n in os.environ.get("SIZES", "16 25 64 81 100 144").split()]
OLD_DIR = ROOT / "target" / "cadical-1.9.5"
OLD_BIN = OLD_DIR / "target" / "release" / "sudosat"


def git(*args):
    return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()


def old_revision():
    """The last revision whose embedded CaDiCaL is 1.9.5 (the `cadical` crate)."""
    if "OLD_REV" in os.environ:
        return os.environ["OLD_REV"]
    upgrade = git("log", "-1", "--format=%H", "-G", r'^cadical = \{ version = "0\.1\.16"', "--", "Cargo.toml")
    return f"{upgrade}^"


def build_old(rev):
    """The 1.9.5 build: the old revision's sources, its own lock file, its own target."""
    src = OLD_DIR / "src"
    stamp = OLD_DIR / "revision"
    commit = git("rev-parse", rev)
    if not (OLD_BIN.exists() and stamp.exists() and stamp.read_text().strip() == commit):
        log(f"cadical: building {commit[:10]} (CaDiCaL 1.9.5) in {OLD_DIR}")
        subprocess.run(["rm", "-rf", str(src)], check=True)
        src.mkdir(parents=True)
        archive = subprocess.Popen(["git", "archive", commit], cwd=ROOT, stdout=subprocess.PIPE)
        subprocess.run(["tar", "-x", "-C", str(src)], stdin=archive.stdout, check=True)
        archive.wait()
        subprocess.run(["cargo", "build", "--release", "-j", "1", "--quiet", "--target-dir", str(OLD_DIR / "target")],
                       cwd=src, check=True)
        stamp.write_text(commit + "\n")
    return commit


def version(binary):
    out = subprocess.run([str(binary), "--version"], capture_output=True, text=True, check=True).stdout
    return next((w for w in out.split() if w.startswith("cadical-")), "cadical-?")


def solve(binary, path):
    """CPU seconds of `sudosat solve --backend cadical` on a file, None past the limit or on
    an error."""
    command = [str(binary), "solve", "--backend", "cadical", "--threads", "1", "--jobs", "1", str(path)]
    r = run(command, cpu_limit=TIMEOUT * max(1, lines(path)), timeout=4 * TIMEOUT * max(1, lines(path)))
    if r.timed_out or r.code != 0:
        return None
    return r.cpu


def lines(path):
    return sum(1 for line in open(path) if line.strip() and line.strip()[0] not in "#%")


def chunks(path, name):
    """The set's puzzles in files of CHUNK."""
    puzzles = [line for line in open(path) if line.strip() and line.strip()[0] not in "#%"]
    out = []
    for k in range(0, len(puzzles), CHUNK):
        chunk = WORK / f"cadical-{name}-{k // CHUNK}.txt"
        chunk.write_text("".join(puzzles[k:k + CHUNK]))
        out.append(chunk)
    return out


def hard_draws():
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "isomorphs.py"), str(data("hard/gecode-25x25-6.txt")),
                          str(COPIES), str(SEED)], capture_output=True, text=True, check=True).stdout.split()
    files = []
    for i, line in enumerate(out):
        path = WORK / f"cadical-hard-{i}.txt"
        path.write_text(line + "\n")
        files.append(path)
    return files


def measure(instances, binaries, flip):
    """{binary: [CPU seconds or None]} over the instances, the two builds alternating."""
    times = {b: [] for b in binaries}
    for i, path in enumerate(instances):
        order = binaries if (i + flip) % 2 == 0 else binaries[::-1]
        for b in order:
            times[b].append(solve(b, path))
        log(f"cadical: {path.name} " + " ".join(f"{t:.3f}" if t is not None else "-" for t in (times[b][-1] for b in binaries)))
    return times


def main():
    build()
    rev = old_revision()
    commit = build_old(rev)
    old, new = version(OLD_BIN), version(BIN)
    binaries = [OLD_BIN, BIN]
    nine = {name: chunks(data(f"9x9/{name}.txt"), name) for name in ["expert-375", "minimal-2k"]}
    hard = hard_draws()
    large = [data(f"large/sudoku-{n}-1.txt") for n in SIZES]
    header([f"git archive {commit[:10]} | tar -x   # {old}, built in target/cadical-1.9.5",
            f"python3 scripts/isomorphs.py benches/data/hard/gecode-25x25-6.txt {COPIES} {SEED}",
            "sudosat solve --backend cadical --threads 1 --jobs 1 FILE   # each build, alternating, on every instance"])
    print(f"CPU seconds (user + system) of `sudosat solve --backend cadical --threads 1 --jobs 1` with {old} "
          f"(the build before the upgrade) and {new} (this one), both in process, every answer checked; "
          f"each instance solved by both, the order alternating; {TIMEOUT:.0f} CPU s a puzzle at most. "
          f"`÷ {old[8:]}` is the new total against the old one (below 1 = faster). Hard draws: seed {SEED}.")
    print()
    rows, flip = [], 0
    parts = [(f"9×9 `{name}` ({lines(data(f'9x9/{name}.txt')):,} puzzles in chunks of {CHUNK})", files)
             for name, files in nine.items()]
    parts.append((f"hard 25×25: the 6 Gecode puzzles × {COPIES} (isomorphs, seed {SEED})", hard))
    for part, files in parts:
        times = measure(files, binaries, flip)
        flip += len(files)
        rows.append(row(part, times, binaries))
    times = measure(large, binaries, flip)
    for k, path in enumerate(large):
        n = SIZES[k]
        rows.append(row(f"{n}×{n} (`{path.name}`)", {b: [times[b][k]] for b in binaries}, binaries))
    table(["instances", "answered", f"CaDiCaL {old[8:]}", f"CaDiCaL {new[8:]}", f"÷ {old[8:]}"], rows)


def row(part, times, binaries):
    old, new = (times[b] for b in binaries)
    both = [(a, b) for a, b in zip(old, new) if a is not None and b is not None]
    answered = f"{sum(t is not None for t in old)} / {sum(t is not None for t in new)} of {len(old)}"
    total_old, total_new = sum(a for a, _ in both), sum(b for _, b in both)
    ratio = f"{total_new / total_old:.2f}" if both and total_old else "–"
    return [part, answered, seconds(total_old) if both else "–", seconds(total_new) if both else "–", ratio]


if __name__ == "__main__":
    main()
