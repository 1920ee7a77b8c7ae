//! No import circle anywhere in the house: within each crate of the workspace (the library,
//! the binary, the SAT crate), no file uses an item of another file that, directly or
//! through others, uses an item of the first. References are counted in `use` lines and in
//! full paths in code (`crate::…`, `super::…`, `self::…`, and paths through an imported
//! module), tests included; a name a `mod.rs` re-exports from a child counts as the
//! child's, so a folder's `mod.rs` may gather its children's items for its users.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// One crate of the workspace and its root file.
struct CrateRoot {
    name: &'static str,
    root: &'static str,
}

const CRATES: [CrateRoot; 3] = [
    CrateRoot {
        name: "sudosat",
        root: "src/lib.rs",
    },
    CrateRoot {
        name: "sudosat (binary)",
        root: "src/bin/sudosat/main.rs",
    },
    CrateRoot {
        name: "sudosat-sat",
        root: "crates/sudosat-sat/src/lib.rs",
    },
];

/// The files of one crate by module path (`[]` is the root), and the file of each macro
/// it exports (at the crate's root path, defined elsewhere).
struct ModuleMap {
    files: BTreeMap<Vec<String>, PathBuf>,
    macros: BTreeMap<String, PathBuf>,
}

impl ModuleMap {
    fn new(top: &Path, krate: &CrateRoot) -> ModuleMap {
        let mut files = BTreeMap::new();
        let mut pending = vec![(Vec::new(), top.join(krate.root))];
        while let Some((path, file)) = pending.pop() {
            let text = std::fs::read_to_string(&file).unwrap();
            // A module's children live in its folder: `a/mod.rs` → `a/`, `a.rs` → `a/`,
            // the crate root → the crate's folder.
            let folder = if path.is_empty() || file.ends_with("mod.rs") {
                file.parent().unwrap().to_path_buf()
            } else {
                file.with_extension("")
            };
            for line in text.lines() {
                let line = line.trim();
                let Some(name) = line
                    .strip_prefix("pub mod ")
                    .or_else(|| line.strip_prefix("pub(crate) mod "))
                    .or_else(|| line.strip_prefix("mod "))
                    .and_then(|rest| rest.strip_suffix(';'))
                else {
                    continue;
                };
                let child = [
                    folder.join(format!("{name}.rs")),
                    folder.join(name).join("mod.rs"),
                ]
                .into_iter()
                .find(|f| f.exists())
                .unwrap_or_else(|| panic!("{}: no file for `mod {name}`", file.display()));
                let mut child_path = path.clone();
                child_path.push(name.to_string());
                pending.push((child_path, child));
            }
            files.insert(path, file);
        }
        let mut macros = BTreeMap::new();
        for file in files.values() {
            let text = std::fs::read_to_string(file).unwrap();
            let mut exported = false;
            for line in text.lines().map(str::trim) {
                if exported {
                    if let Some(rest) = line.strip_prefix("macro_rules! ") {
                        let name = rest.trim_end_matches(['{', ' ']);
                        macros.insert(name.to_string(), file.clone());
                    }
                }
                exported = line == "#[macro_export]";
            }
        }
        ModuleMap { files, macros }
    }

    /// The file holding the item a path (module segments, then maybe an item) names: the
    /// deepest module file along it, followed through a re-export `pub use self::…` of the
    /// next segment when that file only re-exports it.
    fn resolve(&self, segments: &[String]) -> Option<&PathBuf> {
        if let [name] = segments {
            if let Some(file) = self.macros.get(name) {
                return Some(file);
            }
        }
        let mut depth = segments.len();
        while depth > 0 && !self.files.contains_key(&segments[..depth]) {
            depth -= 1;
        }
        let module = segments[..depth].to_vec();
        if let Some(item) = segments.get(depth) {
            match self.reexport(&module, item) {
                Some(Some(target)) => return self.resolve(&target),
                // Another crate's item: no file of this one.
                Some(None) => return None,
                None => {}
            }
        }
        self.files.get(&module)
    }

    /// Where `module` re-exports `item` from (`pub use self::a::{item}`,
    /// `pub use other_crate::item`): the full path of a child's item, or `Some(None)` for
    /// another crate's.
    fn reexport(&self, module: &[String], item: &str) -> Option<Option<Vec<String>>> {
        let text = std::fs::read_to_string(self.files.get(module)?).unwrap();
        for statement in use_statements(&code_only(&text)) {
            let Some(body) = statement
                .strip_prefix("pub use ")
                .or_else(|| statement.strip_prefix("pub(crate) use "))
            else {
                continue;
            };
            for path in expand(body) {
                let (path, name) = split_alias(&path);
                if name != item {
                    continue;
                }
                let mut segments: Vec<String> = path.split("::").map(str::to_string).collect();
                match segments[0].as_str() {
                    "self" => {
                        segments.remove(0);
                        let mut full = module.to_vec();
                        full.extend(segments);
                        return Some(Some(full));
                    }
                    "crate" => {
                        segments.remove(0);
                        return Some(Some(segments));
                    }
                    "super" => {}
                    child
                        if self
                            .files
                            .contains_key(&[module, &[child.to_string()]].concat()) =>
                    {
                        let mut full = module.to_vec();
                        full.extend(segments);
                        return Some(Some(full));
                    }
                    _ => return Some(None),
                }
            }
        }
        None
    }
}

/// A use path and the name it brings in: `a::b as c` → (`a::b`, `c`), `a::b` → (`a::b`, `b`).
fn split_alias(path: &str) -> (&str, &str) {
    match path.split_once(" as ") {
        Some((path, alias)) => (path.trim(), alias.trim()),
        None => (path, path.rsplit("::").next().unwrap_or(path)),
    }
}

/// The text without comments (line comments and doc comments) and string literals.
fn code_only(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let mut in_string = false;
        let mut previous = ' ';
        let mut kept = String::new();
        let chars: Vec<char> = line.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            if !in_string && c == '/' && chars.get(i + 1) == Some(&'/') {
                break;
            }
            if c == '"'
                && previous != '\\'
                && !(previous == '\'' && chars.get(i + 1) == Some(&'\''))
            {
                in_string = !in_string;
            } else if !in_string {
                kept.push(c);
            }
            previous = if previous == '\\' && c == '\\' {
                ' '
            } else {
                c
            };
            i += 1;
        }
        out.push_str(&kept);
        out.push('\n');
    }
    out
}

/// Every `use …;` statement, on one line each.
fn use_statements(code: &str) -> Vec<String> {
    let mut statements = Vec::new();
    let mut rest = code;
    while let Some(start) = find_use(rest) {
        let tail = &rest[start..];
        let end = tail.find(';').unwrap_or(tail.len());
        let statement: String = tail[..end].split_whitespace().collect::<Vec<_>>().join(" ");
        statements.push(statement.replace(" ::", "::").replace(":: ", "::"));
        rest = &tail[end..];
    }
    statements
}

fn find_use(text: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(i) = text[from..].find("use ") {
        let at = from + i;
        let before = text[..at].chars().last();
        if before.map_or(true, |c| c.is_whitespace() || ";{)".contains(c)) {
            let visibility = ["pub(crate) ", "pub "]
                .into_iter()
                .find(|v| text[..at].ends_with(v))
                .map_or(0, str::len);
            return Some(at - visibility);
        }
        from = at + 4;
    }
    None
}

/// `a::{b, c::{d, e as f}}` → `a::b`, `a::c::d`, `a::c::e as f`.
fn expand(body: &str) -> Vec<String> {
    let body = body.trim();
    let Some(open) = body.find('{') else {
        return vec![body.to_string()];
    };
    // Text that only looks like a `use` (the word in a message) may have no closing brace
    // after its opening one: it names no path.
    let Some(close) = body.rfind('}').filter(|&close| close > open) else {
        return Vec::new();
    };
    let prefix = &body[..open];
    let inner = &body[open + 1..close];
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    parts
        .into_iter()
        .filter(|p| !p.trim().is_empty())
        .flat_map(expand)
        .map(|p| {
            if p == "self" {
                prefix.trim_end_matches("::").to_string()
            } else {
                format!("{prefix}{p}")
            }
        })
        .collect()
}

/// The files `file` (module `module`) names items of, each with the reference. Code after
/// the file's first inline module (`mod tests {`) is read as inside it, where `super` is the
/// file's own module.
fn references(map: &ModuleMap, module: &[String], file: &Path) -> Vec<(PathBuf, String)> {
    let code = code_only(&std::fs::read_to_string(file).unwrap());
    let inline_start = code
        .lines()
        .scan(0, |offset, line| {
            let at = *offset;
            *offset += line.len() + 1;
            Some((at, line))
        })
        .find(|(_, line)| {
            let line = line.trim_start();
            let rest = ["pub(crate) mod ", "pub(super) mod ", "pub mod ", "mod "]
                .iter()
                .find_map(|prefix| line.strip_prefix(prefix));
            rest.is_some_and(|rest| rest.trim_end().ends_with('{'))
        })
        .map_or(code.len(), |(at, _)| at);
    let mut found = Vec::new();
    for (part, inline) in [
        (&code[..inline_start], false),
        (&code[inline_start..], true),
    ] {
        let mut scope = module.to_vec();
        if inline {
            scope.push("<inline>".to_string());
        }
        for path in paths_in(map, &scope, part) {
            let segments: Vec<String> = path
                .split("::")
                .filter(|s| !s.is_empty() && *s != "<inline>")
                .map(str::to_string)
                .collect();
            if let Some(target) = map.resolve(&segments) {
                if target != file {
                    found.push((target.clone(), path));
                }
            }
        }
    }
    found
}

/// A module path without the inline module marker.
fn real(path: &[String]) -> Vec<String> {
    path.iter().filter(|s| *s != "<inline>").cloned().collect()
}

/// The full paths of the crate that `code`, in module `scope`, names.
fn paths_in(map: &ModuleMap, scope: &[String], code: &str) -> Vec<String> {
    let mut paths: Vec<String> = Vec::new();
    let mut aliases: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let absolute = |path: &str| -> Option<Vec<String>> {
        let mut segments: Vec<String> = path.split("::").map(|s| s.trim().to_string()).collect();
        let mut base: Vec<String> = match segments[0].as_str() {
            "crate" => Vec::new(),
            "self" => scope.to_vec(),
            "super" => scope[..scope.len().saturating_sub(1)].to_vec(),
            // A child module named without `self::` (edition 2018 paths).
            child
                if map
                    .files
                    .contains_key(&[&real(scope)[..], &[child.to_string()]].concat()) =>
            {
                let mut base = scope.to_vec();
                base.push(child.to_string());
                segments.remove(0);
                base.extend(segments);
                return Some(base);
            }
            _ => return None,
        };
        segments.remove(0);
        while segments.first().map(String::as_str) == Some("super") {
            base.pop();
            segments.remove(0);
        }
        base.extend(segments);
        Some(base)
    };
    for statement in use_statements(code) {
        let body = statement
            .trim_start_matches("pub(crate) ")
            .trim_start_matches("pub ")
            .trim_start_matches("use ");
        for path in expand(body) {
            let (path, name) = split_alias(&path);
            if let Some(full) = absolute(path) {
                if map.files.contains_key(&real(&full)) {
                    aliases.insert(name.to_string(), full.clone());
                }
                paths.push(full.join("::"));
            }
        }
    }
    // Full paths in code, and paths through a module imported by name; a word ending in
    // `::` is a use group, read above.
    let words = code
        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
        .filter(|w| w.contains("::") && !w.ends_with("::"));
    for word in words {
        let first = word.split("::").next().unwrap();
        if matches!(first, "crate" | "self" | "super") {
            if let Some(full) = absolute(word) {
                paths.push(full.join("::"));
            }
        } else if let Some(base) = aliases.get(first) {
            let mut full = base.clone();
            full.extend(word.split("::").skip(1).map(str::to_string));
            paths.push(full.join("::"));
        }
    }
    paths
}

/// A circle in the graph, if any, as its files in order.
fn find_circle(edges: &BTreeMap<PathBuf, BTreeSet<PathBuf>>) -> Option<Vec<PathBuf>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        Open,
        Done,
    }
    fn visit(
        node: &PathBuf,
        edges: &BTreeMap<PathBuf, BTreeSet<PathBuf>>,
        marks: &mut BTreeMap<PathBuf, Mark>,
        stack: &mut Vec<PathBuf>,
    ) -> Option<Vec<PathBuf>> {
        match marks.get(node) {
            Some(Mark::Done) => return None,
            Some(Mark::Open) => {
                let start = stack.iter().position(|n| n == node).unwrap();
                let mut circle = stack[start..].to_vec();
                circle.push(node.clone());
                return Some(circle);
            }
            None => {}
        }
        marks.insert(node.clone(), Mark::Open);
        stack.push(node.clone());
        for next in edges.get(node).into_iter().flatten() {
            if let Some(circle) = visit(next, edges, marks, stack) {
                return Some(circle);
            }
        }
        stack.pop();
        marks.insert(node.clone(), Mark::Done);
        None
    }
    let mut marks = BTreeMap::new();
    for node in edges.keys() {
        if let Some(circle) = visit(node, edges, &mut marks, &mut Vec::new()) {
            return Some(circle);
        }
    }
    None
}

#[test]
fn no_file_imports_from_a_file_that_imports_from_it() {
    let top = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut failures = Vec::new();
    for krate in &CRATES {
        let map = ModuleMap::new(top, krate);
        let mut edges: BTreeMap<PathBuf, BTreeSet<PathBuf>> = BTreeMap::new();
        let mut why: BTreeMap<(PathBuf, PathBuf), String> = BTreeMap::new();
        for (module, file) in &map.files {
            let entry = edges.entry(file.clone()).or_default();
            for (target, path) in references(&map, module, file) {
                entry.insert(target.clone());
                why.entry((file.clone(), target)).or_insert(path);
            }
        }
        // Every circle, each reported once: one edge of each found is set aside.
        while let Some(circle) = find_circle(&edges) {
            let steps: Vec<String> = circle
                .windows(2)
                .map(|pair| {
                    let from = pair[0].strip_prefix(top).unwrap_or(&pair[0]);
                    let to = pair[1].strip_prefix(top).unwrap_or(&pair[1]);
                    let path = &why[&(pair[0].clone(), pair[1].clone())];
                    format!("{} → {} ({path})", from.display(), to.display())
                })
                .collect();
            failures.push(format!("{}: {}", krate.name, steps.join(", ")));
            edges.get_mut(&circle[0]).unwrap().remove(&circle[1]);
        }
    }
    assert!(
        failures.is_empty(),
        "import circles:\n{}",
        failures.join("\n")
    );
}

#[test]
fn use_groups_expand_to_full_paths() {
    assert_eq!(
        expand("crate::a::{b, c::{d, e as f}, self}"),
        [
            "crate::a::b",
            "crate::a::c::d",
            "crate::a::c::e as f",
            "crate::a"
        ]
    );
    assert_eq!(
        code_only("let s = \"crate::x\"; // crate::y\nuse crate::z;"),
        "let s = ; \nuse crate::z;\n"
    );
}
