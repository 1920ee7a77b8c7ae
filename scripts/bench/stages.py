#!/usr/bin/env python3
"""docs/benchmarks/nine.md, "Where a 9×9 batch spends its time": the stages of one
`sudosat solve` process over a puzzle file, as instructions a puzzle counted by callgrind.

One process per set (one job, one thread, every answer written), run under
`valgrind --tool=callgrind`; the counts are split into the stages of the pipeline by the
functions that do each stage (STAGES below, matched on the demangled names). A function
called from several stages is split among them in proportion to the calls' costs (what
callgrind records per call edge). Instruction counts are machine-independent and do not
move with the load of a shared machine; what they leave out is the kernel's time
(system calls: the table's last column gives the process's system CPU time, measured
outside valgrind).

Environment: PROFILE_BASE_BIN (a second binary, e.g. an earlier revision's build, profiled
the same way into a column of its own), PROFILE_SETS (a comma-separated subset of the
set names below), SUDOSAT_DATA (default benches/data).
"""

import os
import re
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import BIN, WORK, build, data, header, log, number, run, show, table  # noqa: E402

SETS = [("minimal-2k", "9x9/minimal-2k.txt"), ("expert-375", "9x9/expert-375.txt")]
ARGS = ["--jobs", "1", "--threads", "1", "-o", "/dev/null"]

# Stage → the functions that do it (regular expressions on callgrind's function names).
# A function's instructions, and those of what it calls, go to the stage of the nearest
# caller that matches; what matches none (start-up, argument parsing, the loop itself,
# allocation outside the stages) is "other".
STAGES = [
    ("reading", [r"::read_located_from_path\b", r"::read_puzzle_file\b"]),
    ("parsing", [r"grid::parse::Parser::", r"grid::lex::", r"grid::parse::parse_",
                 r"::parse_line_grid\b"]),
    ("root reasoning", [r"root::word::WordCandidates::", r"::reason_at_root\b"]),
    ("encoding", [r"::encode_into\b", r"encode::reduce::", r"FreeVars::", r"VarMap::reduced\b",
                  r"VarMap::from_free_vars\b", r"Encoder::encode\b",
                  r"::encode_variables_only\b"]),
    ("loading", [r"cdcl::load::", r"Cdcl::grow\b", r"Cdcl::load_pending\b", r"Vsids::insert_new\b",
                 r"SatBackend for sudosat_sat::cdcl::search::Cdcl>::reset\b",
                 r"SatBackend for sudosat_sat::cdcl::search::Cdcl>::forget_learnt\b",
                 r"::give_structure\b", r"Formula::reserve_pending\b",
                 r"SolveWithRootUnits for sudosat_sat::cdcl::search::Cdcl>::(start_query|set_base)\b"]),
    ("propagation and search", [r"cdcl::search::Cdcl::run\b", r"cdcl::propagate::propagate\b",
                                r"cdcl::analyze::", r"cdcl::decide::", r"cdcl::assume::"]),
    ("decoding", [r"VarMap::decode", r"Trail::model_values\b", r"Model::from_"]),
    ("checking", [r"grid::check::", r"check_model_from\b", r"Cnf::first_falsified"]),
    ("writing", [r"grid::format::write", r"::write_answer\b", r"::write_solution_line\b"]),
]
# Kept out of the stages: the memory check of each puzzle before the batch path computed
# its budget once (a file system read of /proc per puzzle), shown on its own.
EXTRA = [("memory check", [r"SolverArgs::check_memory\b", r"run::available_memory\b"])]


def parse_callgrind(path):
    """Self cost per function and inclusive cost per call edge, from a callgrind file."""
    names, self_cost, edges = {}, {}, {}

    def name_of(field):
        m = re.match(r"\((\d+)\)(?: (.*))?", field)
        if not m:
            return field
        if m.group(2) is not None:
            names[m.group(1)] = m.group(2)
        return names.get(m.group(1), field)

    current, callee, pending_call = None, None, False
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("fn="):
                current = name_of(line[3:])
                self_cost.setdefault(current, 0)
            elif line.startswith("cfn="):
                callee = name_of(line[4:])
            elif line.startswith("calls="):
                pending_call = True
            elif line and (line[0].isdigit() or line[0] in "+-*"):
                parts = line.split()
                if len(parts) < 2 or current is None:
                    continue
                cost = int(parts[1])
                if pending_call:
                    key = (current, callee)
                    edges[key] = edges.get(key, 0) + cost
                    pending_call = False
                else:
                    self_cost[current] = self_cost.get(current, 0) + cost
    return self_cost, edges


def stage_of(name, stages):
    for stage, patterns in stages:
        if any(re.search(p, name) for p in patterns):
            return stage
    return None


def split_by_stage(self_cost, edges, stages):
    """Instructions per stage: each function's own instructions go to its callers' stages
    in proportion to what each call cost, down from the functions without callers."""
    callers, callees = {}, {}
    for (a, b), cost in edges.items():
        if a == b:
            continue
        callers.setdefault(b, []).append((a, cost))
        callees.setdefault(a, []).append(b)
    # Order: every function after its callers (a depth-first order; cycles broken anywhere).
    order, state = [], {}
    for root in self_cost:
        if state.get(root):
            continue
        stack = [(root, iter(callees.get(root, [])))]
        state[root] = 1
        while stack:
            node, it = stack[-1]
            child = next(it, None)
            if child is None:
                stack.pop()
                state[node] = 2
                order.append(node)
            elif not state.get(child):
                state[child] = 1
                stack.append((child, iter(callees.get(child, []))))
    order.reverse()
    position = {name: i for i, name in enumerate(order)}
    share = {}  # function → {stage: fraction of its calls}
    totals = {}
    for name in order:
        own = stage_of(name, stages)
        if own is not None:
            mix = {own: 1.0}
        else:
            incoming = [(a, c) for a, c in callers.get(name, []) if position.get(a, -1) < position[name]]
            weight = sum(c for _, c in incoming)
            mix = {}
            for a, c in incoming:
                for stage, part in share.get(a, {"other": 1.0}).items():
                    mix[stage] = mix.get(stage, 0.0) + part * c / weight if weight else 0.0
            if not mix:
                mix = {"other": 1.0}
        share[name] = mix
        for stage, part in mix.items():
            totals[stage] = totals.get(stage, 0.0) + part * self_cost.get(name, 0)
    return totals


def profile(binary, puzzles, label):
    out = WORK / f"stages-{label}.callgrind"
    command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", str(binary), "solve",
               str(puzzles), *ARGS]
    r = run(command, timeout=3600)
    if r.code != 0:
        sys.exit(f"{show(command)} failed: {r.stderr.strip()[-300:]}")
    self_cost, edges = parse_callgrind(out)
    out.unlink()
    return split_by_stage(self_cost, edges, STAGES + EXTRA)


def system_time(binary, puzzles):
    """System CPU seconds of the same process outside valgrind (the fastest of three)."""
    best = None
    for _ in range(3):
        r = run([str(binary), "solve", str(puzzles), *ARGS], timeout=600)
        if r.code != 0:
            sys.exit(f"{binary} solve {puzzles} failed")
        best = r.sys if best is None else min(best, r.sys)
    return best


def count_puzzles(path):
    return sum(1 for line in open(path) if line.strip() and not line.startswith("#"))


def main():
    if not shutil.which("valgrind"):
        print("valgrind is not installed (`apt-get install valgrind`): not measured.")
        return
    build()
    wanted = os.environ.get("PROFILE_SETS")
    sets = [s for s in SETS if not wanted or s[0] in wanted.split(",")]
    binaries = [("this revision", BIN)]
    if os.environ.get("PROFILE_BASE_BIN"):
        binaries.insert(0, ("base", Path(os.environ["PROFILE_BASE_BIN"])))
    commands = [f"valgrind --tool=callgrind {show([BIN, 'solve', data(rel), *ARGS])}" for _, rel in sets]
    header(commands)
    columns, results = [], {}
    for set_name, rel in sets:
        path = data(rel)
        n = count_puzzles(path)
        for label, binary in binaries:
            log(f"stages: {label} on {set_name}")
            costs = profile(binary, path, f"{set_name}-{len(columns)}")
            results[(label, set_name)] = ({k: v / n for k, v in costs.items()},
                                          system_time(binary, path) * 1e6 / n)
            columns.append((label, set_name))
    names = [s for s, _ in STAGES] + [s for s, _ in EXTRA] + ["other"]
    rows = []
    for stage in names:
        row = [stage]
        for key in columns:
            costs, _ = results[key]
            total = sum(costs.values())
            value = costs.get(stage, 0.0)
            row.append(f"{number(value / 1000, 1)}k ({100 * value / total:.0f} %)" if value else "–")
        rows.append(row)
    rows.append(["**total**"] + [f"**{number(sum(results[k][0].values()) / 1000, 1)}k**"
                                 for k in columns])
    rows.append(["system CPU µs (kernel, not counted above)"] +
                [number(results[k][1], 1) for k in columns])
    multi = len(binaries) > 1
    heading = [f"{label}, {set_name}" if multi else set_name for label, set_name in columns]
    print("Instructions a puzzle by stage (callgrind, the whole process divided by the puzzles, "
          "one job, one thread, first solution, every answer written and checked):")
    print()
    table(["stage"] + heading, rows)


if __name__ == "__main__":
    main()
