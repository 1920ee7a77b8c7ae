#!/usr/bin/env python3
"""Draws the library's module graph from the code, as Mermaid text in Markdown.

Usage, from the repository root:
    scripts/module-graph.py            prints the page
    scripts/module-graph.py --write    writes docs/architecture-modules.md
    scripts/module-graph.py --check    exits 1 when that file is not what the code draws

Two pictures. The first has a node per top-level module of the library (`src/NAME.rs` or
`src/NAME/`, and the SAT crate's modules, which `src/lib.rs` re-exports) and an arrow
A --> B when a file of A names `crate::B` (in a `use` line or a full path). The second
has a node per file of the compare harness (`src/compare/`) and an arrow when a file
names an item of another (`super::file`, `crate::compare::file`, or an item the folder's
`mod.rs`, `summary.rs`, `plot.rs`, `output.rs` or `report.rs` re-exports from it).
Comments, strings and `#[cfg(test)]` modules are left out: the pictures show what the
product's code uses.
"""

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
PAGE = ROOT / "docs" / "architecture-modules.md"
# The compare harness's files that only gather their children's items ('' is mod.rs).
HUBS = ["", "summary", "plot", "output", "report"]


def code_of(path):
    """The file's code without comments, strings and its `#[cfg(test)]` module."""
    text = path.read_text()
    cut = re.search(r"^#\[cfg\(test\)\]\n(?:pub(?:\([\w:]+\))? )?mod tests", text, re.M)
    if cut:
        text = text[: cut.start()]
    lines = []
    for line in text.splitlines():
        line = re.sub(r'"(?:[^"\\]|\\.)*"', '""', line)
        at = line.find("//")
        lines.append(line if at < 0 else line[:at])
    return "\n".join(lines)


def use_paths(code):
    """Every path a `use` statement names, groups expanded: `a::{b, c::d}` -> a::b, a::c::d."""
    paths = []
    for statement in re.findall(r"\buse\s+([^;]+);", code):
        paths.extend(expand(" ".join(statement.split())))
    return paths


def expand(body):
    if "{" not in body:
        return [body.strip()]
    open_at, close_at = body.index("{"), body.rindex("}")
    prefix, inner = body[:open_at], body[open_at + 1 : close_at]
    parts, depth, start = [], 0, 0
    for i, c in enumerate(inner):
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(inner[start:i])
            start = i + 1
    parts.append(inner[start:])
    out = []
    for part in parts:
        if part.strip():
            out.extend(prefix + p for p in expand(part.strip()))
    return out


def top_level_modules():
    """The library's modules declared in src/lib.rs, each with its files."""
    lib = (SRC / "lib.rs").read_text()
    modules = {}
    for name in re.findall(r"^\s*(?:pub(?:\(crate\))? )?mod (\w+);", lib, re.M):
        folder = SRC / name
        files = sorted(folder.rglob("*.rs")) if folder.is_dir() else []
        if (SRC / f"{name}.rs").exists():
            files.append(SRC / f"{name}.rs")
        modules[name] = files
    # The SAT crate's modules the library re-exports under its own name.
    for group in re.findall(r"^pub use sudosat_sat::\{([^}]*)\};", lib, re.M):
        for name in group.split(","):
            modules.setdefault(name.strip(), [])
    return modules


def library_graph():
    modules = top_level_modules()
    edges = set()
    for name, files in modules.items():
        for path in files:
            code = code_of(path)
            named = use_paths(code) + re.findall(r"\bcrate::\w+(?:::\w+)*", code)
            for full in named:
                parts = full.split("::")
                if parts[0] == "crate" and len(parts) > 1:
                    target = parts[1]
                    if target in modules and target != name:
                        edges.add((name, target))
    return sorted(modules), sorted(edges)


def compare_files():
    """The compare harness's files by module path below `compare` (`summary::stats`)."""
    base = SRC / "compare"
    files = {}
    for path in sorted(base.rglob("*.rs")):
        rel = path.relative_to(base).with_suffix("")
        parts = [p for p in rel.parts if p != "mod"]
        files["::".join(parts)] = path
    return files


def reexports(files, module):
    """What the hub `module` ('' for mod.rs) re-exports: item -> child module path."""
    found = {}
    code = code_of(files[module] if module else files[""])
    for full in re.findall(r"\bpub use ([^;]+);", code):
        for path in expand(" ".join(full.split())):
            parts = [p for p in path.split("::") if p != "self"]
            child = "::".join(filter(None, [module, parts[0]]))
            if child in files and len(parts) > 1:
                found[parts[-1]] = child
    return found


def compare_graph():
    files = compare_files()
    hubs = {m: reexports(files, m) for m in HUBS if m in files}
    edges = set()
    for module, path in files.items():
        if module in hubs:
            continue  # a hub only gathers its children's items
        scope = module.split("::")[:-1]
        code = code_of(path)
        named = use_paths(code) + re.findall(r"\b(?:super|crate)(?:::\w+)+", code)
        for full in named:
            parts = full.split("::")
            if parts[0] == "crate":
                if parts[1:2] != ["compare"]:
                    continue
                at = []
                parts = parts[2:]
            elif parts[0] == "super":
                at = list(scope)
                parts = parts[1:]
                while parts and parts[0] == "super":
                    at = at[:-1]
                    parts = parts[1:]
            else:
                continue
            target = resolve(files, hubs, at, parts)
            if target and target != module:
                edges.add((module, target))
    nodes = [m for m in files if m not in hubs]
    return sorted(nodes), sorted(edges)


def resolve(files, hubs, at, parts):
    """The file an item path names, from module `at`, through the hubs' re-exports."""
    while parts:
        here = "::".join(at)
        child = "::".join(at + [parts[0]])
        if child in files:
            at = at + [parts[0]]
            parts = parts[1:]
            continue
        if here in hubs and parts[0] in hubs[here]:
            return hubs[here][parts[0]]
        break
    here = "::".join(at)
    return None if here in hubs else here


def mermaid(nodes, edges):
    ident = {n: re.sub(r"\W", "_", n) for n in nodes}
    lines = ["```mermaid", "flowchart LR"]
    lines += [f'    {ident[n]}["{n}"]' for n in nodes]
    lines += [f"    {ident[a]} --> {ident[b]}" for a, b in edges]
    lines.append("```")
    return "\n".join(lines)


def page():
    lib_nodes, lib_edges = library_graph()
    cmp_nodes, cmp_edges = compare_graph()
    return "\n".join(
        [
            "# Module graph",
            "",
            "Drawn from the code by `scripts/module-graph.py --write` (do not edit by hand; "
            "the script's `--check` says when the code moved on). An arrow A → B: a file of "
            "A uses an item of B. See [the architecture](architecture.md) for the reading.",
            "",
            "## The library's modules",
            "",
            mermaid(lib_nodes, lib_edges),
            "",
            "## The compare harness, file by file",
            "",
            "Below `src/compare/`; `mod.rs`, `summary.rs`, `plot.rs`, `output.rs` and "
            "`report.rs` only gather their children's items and are left out.",
            "",
            mermaid(cmp_nodes, cmp_edges),
            "",
        ]
    )


def main():
    text = page()
    if sys.argv[1:] == ["--write"]:
        PAGE.write_text(text)
    elif sys.argv[1:] == ["--check"]:
        if not PAGE.exists() or PAGE.read_text() != text:
            print(f"{PAGE.relative_to(ROOT)} is not what the code draws: "
                  "run scripts/module-graph.py --write", file=sys.stderr)
            sys.exit(1)
    elif sys.argv[1:]:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    else:
        print(text, end="")


if __name__ == "__main__":
    main()
