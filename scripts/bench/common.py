"""What every benchmark script of scripts/bench shares: where the data and the binaries
are, how a process is run and measured, and how a table is printed.

Each script prints one section's Markdown: a line naming the machine, the date, the
revision and the commands, then its tables. `scripts/benchmarks.sh` puts that output
between the section's markers on its page of docs/benchmarks/ (scripts/bench/markers.py).
"""

import csv
import datetime
import os
import resource
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(os.environ.get("SUDOSAT_DATA", ROOT / "benches" / "data"))
# The binary measured: this clone's release build, or $BENCH_BIN (a copy kept aside, so
# that a long run is not changed under it by the next build).
BIN = Path(os.environ.get("BENCH_BIN", ROOT / "target" / "release" / "sudosat"))
EXAMPLES = Path(os.environ.get("BENCH_EXAMPLES", ROOT / "target" / "release" / "examples"))
# Scratch files of a run (CSVs, CNFs, proofs), under target/ so that commands print short paths.
WORK = ROOT / "target" / "bench"
GNU_TIME = "/usr/bin/time"
WORK.mkdir(parents=True, exist_ok=True)


def log(message):
    """Progress goes to stderr, so that stdout is the section's Markdown alone."""
    print(message, file=sys.stderr, flush=True)


def build(examples=False):
    """The release build the figures are measured with (one job: the machine is shared);
    nothing with $BENCH_BIN."""
    if "BENCH_BIN" in os.environ:
        return
    command = ["cargo", "build", "--release", "-j", "1", "--quiet"]
    if examples:
        command.append("--examples")
    subprocess.run(command, cwd=ROOT, check=True)


def data(relative):
    path = DATA / relative
    if not path.exists():
        sys.exit(f"{path}: missing (the sets ship in benches/data; SUDOSAT_DATA points elsewhere)")
    return path


def tool(env_name, default):
    """A peer solver: `$ENV_NAME` if set, else `default` on PATH; None when absent."""
    name = os.environ.get(env_name, default)
    found = shutil.which(name) if name else None
    return found


def machine():
    model, cores = "unknown CPU", 0
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                cores += 1
    except OSError:
        pass
    memory = ""
    try:
        for line in open("/proc/meminfo"):
            if line.startswith("MemTotal"):
                memory = f", {int(line.split()[1]) / 2**20:.0f} GiB"
    except OSError:
        pass
    return f"{model}, {cores or os.cpu_count()} cores{memory}"


def revision():
    def git(*args):
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True).stdout.strip()

    rev = git("rev-parse", "--short", "HEAD") or "unknown"
    # Only what goes into the binaries counts (the benchmark pages change while the
    # driver fills them in).
    if git("status", "--porcelain", "--untracked-files=no", "--", "src", "crates", "examples",
           "benches", "Cargo.toml", "Cargo.lock"):
        rev += " (with uncommitted changes)"
    return rev


def header(commands):
    """The line above a section's tables: machine, date, revision, commands."""
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"Measured on {machine()}; {now}, load average {load:.1f} at the start; "
          f"revision {revision()}, release build. Commands:")
    print()
    print("```sh")
    for command in commands:
        print(command)
    print("```")
    print()


def relative(path):
    """A path as the commands print it: relative to the repository."""
    try:
        return str(Path(path).resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


class Run:
    """One process: wall seconds, CPU seconds (user + system), peak resident KiB, output."""

    def __init__(self, wall, cpu, peak_kib, code, stdout, stderr, timed_out, sys=0.0):
        self.wall, self.cpu, self.peak_kib = wall, cpu, peak_kib
        self.sys = sys  # the system (kernel) part of `cpu`
        self.code, self.stdout, self.stderr, self.timed_out = code, stdout, stderr, timed_out


def group_high_water(group):
    """The largest peak resident set (KiB) among the live processes of a process group, read
    from /proc before the group is killed (a killed GNU time reports nothing)."""
    peak = 0
    for entry in os.listdir("/proc") if os.path.isdir("/proc") else []:
        if not entry.isdigit():
            continue
        try:
            stat = open(f"/proc/{entry}/stat").read()
            if int(stat.rsplit(")", 1)[1].split()[2]) != group:
                continue
            for line in open(f"/proc/{entry}/status"):
                if line.startswith("VmHWM:"):
                    peak = max(peak, int(line.split()[1]))
        except (OSError, ValueError, IndexError):
            continue
    return peak


def run(command, timeout=None, env=None, cwd=ROOT, stdin=None, cpu_limit=None, measure_peak=True):
    """Runs `command` in its own process group, killed whole past `timeout` seconds (wall)
    or, with `cpu_limit`, once it has used that many CPU seconds (RLIMIT_CPU: fair on a
    shared machine; the run then counts as timed out). Wall and CPU time come from wait4
    (the process and the children it waited for), the peak resident memory from GNU time
    when installed (`apt-get install time`) and `measure_peak` asks for it.

    GNU time's own process adds about 1.2 ms of CPU to the command's, and a limit set in the
    child before the exec (Python code run in a fork of this interpreter) about 1 ms more:
    nothing against a run of seconds, a third of a 3 ms one. Timings of short processes
    pass `measure_peak=False` (no GNU time); without `cpu_limit` nothing runs before the
    exec."""
    full_env = dict(os.environ, **(env or {}))
    # The peak resident set a child inherits from its parent's image carries over exec, so
    # measured from here it could not fall below Python's own; GNU time is small.
    peak_file = None
    if measure_peak and os.access(GNU_TIME, os.X_OK):
        peak_file = tempfile.NamedTemporaryFile("w+", delete=False)
        command = [GNU_TIME, "-q", "-o", peak_file.name, "-f", "%M", *map(str, command)]
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        stdin_file = open(stdin) if stdin else subprocess.DEVNULL
        start = time.monotonic()
        def limit_cpu():
            if cpu_limit:
                seconds = int(cpu_limit + 0.999)
                resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds + 1))

        process = subprocess.Popen(command, stdout=out, stderr=err, stdin=stdin_file, env=full_env,
                                   cwd=cwd, start_new_session=True,
                                   preexec_fn=limit_cpu if cpu_limit else None)
        timed_out, group_peak = False, 0
        deadline = start + timeout if timeout else None
        while True:
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                break
            if deadline and time.monotonic() > deadline:
                timed_out = True
                group_peak = group_high_water(process.pid)
                os.killpg(process.pid, signal.SIGKILL)
                pid, status, usage = os.wait4(process.pid, 0)
                break
            time.sleep(0.002)
        wall = time.monotonic() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    cpu = usage.ru_utime + usage.ru_stime
    if cpu_limit and cpu >= int(cpu_limit + 0.999) - 0.05 and process.returncode not in (0, 10, 20):
        timed_out = True  # SIGXCPU or SIGKILL at the CPU limit (through GNU time, its status)
    peak = usage.ru_maxrss
    if timed_out and group_peak:
        peak = group_peak
    elif peak_file:
        text = open(peak_file.name).read().split()
        os.unlink(peak_file.name)
        if text and text[-1].isdigit():
            peak = int(text[-1])
    return Run(wall, usage.ru_utime + usage.ru_stime, peak, process.returncode, stdout,
               stderr, timed_out, sys=usage.ru_stime)


def show(command):
    """A command as a user types it: the binary by its repository path."""
    def word(part):
        part = str(part).replace(str(BIN), "sudosat")
        if part.startswith(str(ROOT)):
            return relative(part)
        if os.path.isabs(part) and os.access(part, os.X_OK) and not os.path.isdir(part):
            return os.path.basename(part)  # a peer solver: named, not where it sits here
        return part

    return " ".join(shlex.quote(word(part)) for part in command).replace(
        "target/release/sudosat", "sudosat")


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def table(headings, rows, right=None):
    """A Markdown table; `right` names the columns aligned right (default: all but the first)."""
    right = set(range(1, len(headings))) if right is None else set(right)
    lines = ["| " + " | ".join(headings) + " |",
             "|" + "|".join("---:" if i in right else "---" for i in range(len(headings))) + "|"]
    for row in rows:
        lines.append("| " + " | ".join(str(cell) for cell in row) + " |")
    print("\n".join(lines))
    print()


def number(value, digits=0):
    """Thousands separated, as the benchmark pages print figures."""
    return f"{value:,.{digits}f}"


def seconds(value):
    if value >= 100:
        return f"{value:,.0f} s"
    if value >= 10:
        return f"{value:.1f} s"
    if value >= 1:
        return f"{value:.2f} s"
    if value >= 0.01:
        return f"{value * 1000:.0f} ms"
    return f"{value * 1000:.1f} ms"


def ratio(value, reference):
    if not value or not reference:
        return "–"
    return f"{value / reference:.2f}"


# The SAT competition's current winners, built by scripts/build-peers.sh: (program under
# the repository, name with version). Debian's `cadical` is CaDiCaL 1.5.3.
PEER_PROGRAMS = [("target/peers/bin/kissat", "Kissat 4.0.4"), ("target/peers/bin/cadical", "CaDiCaL 2.2.1")]


def peer_entries():
    """The built peers as compare entries (`external:PROGRAM -q`, run from the repository
    root), with their names: none when scripts/build-peers.sh has not run."""
    return [(f"external:{program} -q", name) for program, name in PEER_PROGRAMS
            if os.access(ROOT / program, os.X_OK)]


def peer_label(solver):
    """An entry's name with the peers' versions: `CaDiCaL 1.5.3` for Debian's."""
    for entry, name in peer_entries():
        solver = solver.replace(entry, f"{name} (process)")
    return solver.replace("external:cadical -q", "CaDiCaL 1.5.3")

