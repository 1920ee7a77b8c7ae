//! Every relative link of README.md, the guide (docs/*.md), DEVELOPERS.md, BENCHMARKS.md and
//! its pages (docs/benchmarks/*.md) leads somewhere: the file exists inside the repository, and an `#anchor` names a heading
//! of the Markdown file it points into, slugged as GitHub slugs headings. The same files
//! name no path of one machine and nothing else a user's clone lacks.

mod common;

use common::{guide_files, markdown_files, repo_root};
use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

/// The folder of the benchmark pages, which BENCHMARKS.md maps.
const BENCHMARK_PAGES: &str = "docs/benchmarks";

/// The pages of [`BENCHMARK_PAGES`], in name order.
fn benchmark_pages() -> Vec<PathBuf> {
    markdown_files(BENCHMARK_PAGES)
}

/// The documents whose links are checked.
fn documents() -> Vec<PathBuf> {
    let root = repo_root();
    let mut all: Vec<PathBuf> = ["README.md", "DEVELOPERS.md", "BENCHMARKS.md"]
        .iter()
        .map(|name| root.join(name))
        .collect();
    all.extend(guide_files());
    all.extend(benchmark_pages());
    all
}

/// Is `relative` (a path from the repository root) BENCHMARKS.md or one of its pages?
fn is_benchmarks(relative: &Path) -> bool {
    relative == Path::new("BENCHMARKS.md") || relative.starts_with(BENCHMARK_PAGES)
}

/// Is `c` one of the combining marks GitHub keeps in a slug (Unicode's \p{M}, in the
/// blocks that occur in Latin, Greek and Cyrillic text and in symbols)?
fn is_combining_mark(c: char) -> bool {
    matches!(c,
        '\u{0300}'..='\u{036F}'
        | '\u{1AB0}'..='\u{1AFF}'
        | '\u{1DC0}'..='\u{1DFF}'
        | '\u{20D0}'..='\u{20FF}'
        | '\u{FE20}'..='\u{FE2F}')
}

/// A heading's anchor as GitHub makes it: lowercase, letters, marks, numbers, `_`, `-`
/// and spaces kept and every other character dropped, then each space a `-`. So `×` (a
/// math symbol) goes: "9×9 sets" is `99-sets`.
fn slug(heading: &str) -> String {
    heading
        .to_lowercase()
        .chars()
        .filter(|&c| c.is_alphanumeric() || is_combining_mark(c) || matches!(c, '_' | '-' | ' '))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The text of a heading as rendered: a link shows its text, code its content.
fn rendered(heading: &str) -> String {
    let mut text = String::new();
    let mut rest = heading;
    while let Some(at) = rest.find("](") {
        text.push_str(&rest[..at]);
        rest = &rest[at + 2..];
        rest = rest.find(')').map_or("", |end| &rest[end + 1..]);
    }
    text.push_str(rest);
    text.replace(['[', '`', '*'], "")
}

/// The lines of a Markdown text outside fenced code blocks, with their 1-based numbers.
fn prose_lines(text: &str) -> Vec<(usize, &str)> {
    let mut fenced = false;
    let mut lines = Vec::new();
    for (index, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced {
            lines.push((index + 1, line));
        }
    }
    lines
}

/// The anchors of a document's headings (`#` headings; a repeated heading gets `-1`, `-2`
/// as on GitHub).
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    for (_, line) in prose_lines(text) {
        let hashes = line.chars().take_while(|&c| c == '#').count();
        if hashes == 0 || hashes > 6 || !line[hashes..].starts_with(' ') {
            continue;
        }
        let base = slug(rendered(line[hashes..].trim()).trim());
        let mut anchor = base.clone();
        let mut n = 0;
        while seen.contains(&anchor) {
            n += 1;
            anchor = format!("{base}-{n}");
        }
        seen.insert(anchor);
    }
    seen
}

/// A line with its inline code spans taken out (a link shown as code is not a link).
fn without_code_spans(line: &str) -> String {
    line.split('`')
        .enumerate()
        .filter(|(index, _)| index % 2 == 0)
        .map(|(_, part)| part)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The link targets of a document: `[text](target)`, `![alt](target)` and reference
/// definitions `[name]: target`, with their lines.
fn links(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (number, line) in prose_lines(text) {
        let line = without_code_spans(line);
        let mut rest = line.as_str();
        while let Some(at) = rest.find("](") {
            rest = &rest[at + 2..];
            let end = rest.find(')').unwrap_or(rest.len());
            let target = rest[..end].split_whitespace().next().unwrap_or("");
            found.push((number, target.trim_matches(['<', '>']).to_string()));
            rest = &rest[end..];
        }
        let trimmed = line.trim_start();
        if let Some(close) = trimmed.strip_prefix('[').and_then(|r| r.find("]: ")) {
            let target = trimmed[close + 4..].split_whitespace().next().unwrap_or("");
            found.push((number, target.to_string()));
        }
    }
    found
}

fn is_external(target: &str) -> bool {
    target.contains("://") || target.starts_with("mailto:")
}

/// Where a link leads wrong, if it does.
fn check_link(document: &Path, target: &str) -> Option<String> {
    if is_external(target) {
        return None;
    }
    let (path, anchor) = target.split_once('#').unwrap_or((target, ""));
    let root = repo_root().canonicalize().expect("the repository");
    let file = if path.is_empty() {
        document.to_path_buf()
    } else {
        document.parent().expect("a folder").join(path)
    };
    let Ok(file) = file.canonicalize() else {
        return Some(format!("`{target}`: no such file"));
    };
    if !file.starts_with(&root) {
        return Some(format!("`{target}`: outside the repository"));
    }
    if anchor.is_empty() {
        return None;
    }
    if file.extension().map_or(true, |ext| ext != "md") {
        return Some(format!(
            "`{target}`: an anchor into a file that is not Markdown"
        ));
    }
    let text = fs::read_to_string(&file).expect("a readable document");
    let known = anchors(&text);
    (!known.contains(anchor)).then(|| {
        format!(
            "`{target}`: no heading with anchor `#{anchor}` in {}",
            file.strip_prefix(&root).unwrap_or(&file).display()
        )
    })
}

/// Does the link name a heading of BENCHMARKS.md or of one of its pages? Those are checked
/// on their own: the guide links into their sections by their agreed headings.
fn is_benchmarks_anchor(document: &Path, target: &str) -> bool {
    let Some((path, _)) = target.split_once('#') else {
        return false;
    };
    let file = if path.is_empty() {
        document.to_path_buf()
    } else {
        document.parent().expect("a folder").join(path)
    };
    // A file that is not there is the other test's finding.
    let (Ok(file), Ok(root)) = (file.canonicalize(), repo_root().canonicalize()) else {
        return false;
    };
    file.strip_prefix(&root).is_ok_and(is_benchmarks)
}

/// The broken links of every document whose links `select` picks, and how many it picked.
fn broken_links(select: impl Fn(&Path, &str) -> bool) -> (Vec<String>, usize) {
    let root = repo_root();
    let mut broken = Vec::new();
    let mut checked = 0;
    for document in documents() {
        let Ok(text) = fs::read_to_string(&document) else {
            continue;
        };
        let name = document.strip_prefix(&root).expect("inside").display();
        for (line, target) in links(&text) {
            if !select(&document, &target) {
                continue;
            }
            checked += 1;
            if let Some(problem) = check_link(&document, &target) {
                broken.push(format!("{name}:{line}: {problem}"));
            }
        }
    }
    (broken, checked)
}

#[test]
fn every_relative_link_and_anchor_resolves() {
    let (broken, checked) =
        broken_links(|document, target| !is_benchmarks_anchor(document, target));
    assert!(checked > 20, "only {checked} links found");
    assert!(
        broken.is_empty(),
        "{} broken link(s):\n{}",
        broken.len(),
        broken.join("\n")
    );
}

#[test]
fn every_link_into_a_section_of_benchmarks_names_one_of_its_headings() {
    let (broken, checked) = broken_links(is_benchmarks_anchor);
    assert!(
        checked > 5,
        "only {checked} links into the benchmark pages' sections"
    );
    assert!(
        broken.is_empty(),
        "{} link(s) into sections the benchmark pages do not have:\n{}",
        broken.len(),
        broken.join("\n")
    );
}

/// Every one of `files` is linked from `from` (a document at the repository root, so its
/// link targets are paths from the root).
fn assert_links_each(from: &str, files: &[PathBuf]) {
    let root = repo_root();
    let text = fs::read_to_string(root.join(from)).expect(from);
    let targets: BTreeSet<String> = links(&text)
        .into_iter()
        .map(|(_, target)| target.split('#').next().unwrap_or("").to_string())
        .collect();
    for file in files {
        let relative = file.strip_prefix(&root).expect("inside");
        let relative = relative.display().to_string();
        assert!(
            targets.contains(&relative),
            "{from} does not link {relative}"
        );
    }
}

#[test]
fn the_readme_leads_into_every_file_of_the_guide() {
    let guide: Vec<PathBuf> = guide_files()
        .into_iter()
        .filter(|file| !file.ends_with("docs/history.md"))
        .collect();
    assert_links_each("README.md", &guide);
}

#[test]
fn benchmarks_md_leads_into_every_benchmark_page() {
    let pages = benchmark_pages();
    assert!(pages.len() >= 10, "the benchmark pages: {pages:?}");
    assert_links_each("BENCHMARKS.md", &pages);
}

/// The data folder beside the repository, which a user's clone does not have.
const BESIDE_THE_REPOSITORY: &str = "../shared";

/// The absolute paths of `line` (a `/` that starts a word and names a folder), but for
/// devices (`/dev/null`): a path of one machine, which a user's clone does not have.
fn absolute_paths(line: &str) -> Vec<&str> {
    let mut found = Vec::new();
    let mut previous = ' ';
    for (at, c) in line.char_indices() {
        let starts_word = previous.is_whitespace() || "\"'`(=".contains(previous);
        previous = c;
        if c != '/' || !starts_word {
            continue;
        }
        let word = line[at..]
            .split(|c: char| c.is_whitespace() || "\"'`)".contains(c))
            .next()
            .unwrap_or("");
        let folder = word[1..].split('/').next().unwrap_or("");
        let names_a_folder = word[1..].contains('/') && !folder.is_empty();
        if names_a_folder && folder != "dev" {
            found.push(word);
        }
    }
    found
}

/// The relative paths of `line` that climb out of the clone: each word with a `..` step
/// (starting where [`absolute_paths`] starts words, and after a comma, as in a CSV row),
/// resolved from a folder `depth` levels below the repository root.
fn paths_outside_the_clone(line: &str, depth: usize) -> Vec<&str> {
    let mut found = Vec::new();
    let mut previous = ' ';
    for (at, c) in line.char_indices() {
        let starts_word = previous.is_whitespace() || "\"'`(=,>".contains(previous);
        previous = c;
        if c != '.' || !starts_word || !line[at..].starts_with("../") {
            continue;
        }
        let word = line[at..]
            .split(|c: char| c.is_whitespace() || "\"'`),<".contains(c))
            .next()
            .unwrap_or("");
        let mut level = depth as i64;
        for step in word.split('/') {
            match step {
                ".." => level -= 1,
                "." | "" => {}
                _ => level += 1,
            }
            if level < 0 {
                found.push(word);
                break;
            }
        }
    }
    found
}

/// The places where `text` (a file `depth` folders below the root) names a path of one
/// machine or one outside the clone: absolute paths anywhere; a relative path climbing out
/// of the clone from the file's folder in a Markdown link, from the repository root
/// anywhere else (the commands and the paths the tool writes are relative to the root
/// they run from).
fn paths_a_clone_lacks(name: &str, text: &str, depth: usize) -> Vec<String> {
    let mut found = Vec::new();
    // A `toml` block is a user's own manifest: its paths are relative to the user's crate.
    let mut in_toml = false;
    for (index, line) in text.lines().enumerate() {
        if let Some(fence) = line.trim_start().strip_prefix("```") {
            in_toml = !in_toml && fence.trim() == "toml";
            continue;
        }
        if in_toml {
            continue;
        }
        let mut outside: Vec<&str> = absolute_paths(line);
        let mut rest = line.to_string();
        for (_, target) in links(line) {
            outside.extend(
                paths_outside_the_clone(&format!(" {target}"), depth)
                    .into_iter()
                    .map(|_| "a link out of the clone"),
            );
            rest = rest.replace(&format!("]({target})"), "]");
        }
        let rest_paths: Vec<String> = paths_outside_the_clone(&rest, 0)
            .into_iter()
            .map(str::to_string)
            .collect();
        for path in outside.iter().map(|p| p.to_string()).chain(rest_paths) {
            found.push(format!("{name}:{}: `{path}` in: {line}", index + 1));
        }
    }
    found
}

/// The example reports (their CSV, sidecar, JSON, page, plots and README) hold paths
/// relative to the repository root and nothing outside a clone: they are redrawn from
/// rows measured on `benches/data`.
#[test]
fn the_example_reports_name_no_path_outside_the_clone() {
    let root = repo_root();
    let mut found = Vec::new();
    let mut files = vec![root.join("benches/reports")];
    let mut read = 0;
    while let Some(path) = files.pop() {
        if path.is_dir() {
            files.extend(fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
            continue;
        }
        let Ok(text) = fs::read_to_string(&path) else {
            continue;
        };
        read += 1;
        let relative = path.strip_prefix(&root).unwrap();
        let depth = relative.components().count() - 1;
        found.extend(paths_a_clone_lacks(
            &relative.display().to_string(),
            &text,
            depth,
        ));
    }
    assert!(read >= 10, "the example reports are there ({read} files)");
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn the_user_docs_name_nothing_a_users_clone_lacks() {
    let root = repo_root();
    let mut found = Vec::new();
    for document in documents() {
        let relative = document
            .strip_prefix(&root)
            .expect("inside")
            .display()
            .to_string();
        // The benchmark figures and the journal of tries keep their own history.
        if is_benchmarks(Path::new(&relative)) || relative == "docs/history.md" {
            continue;
        }
        let Ok(text) = fs::read_to_string(&document) else {
            continue;
        };
        let depth = Path::new(&relative).components().count() - 1;
        found.extend(paths_a_clone_lacks(&relative, &text, depth));
        for (index, line) in text.lines().enumerate() {
            let lower = line.to_lowercase();
            if lower.contains(BESIDE_THE_REPOSITORY) {
                found.push(format!(
                    "{relative}:{}: `{BESIDE_THE_REPOSITORY}` in: {line}",
                    index + 1
                ));
            }
            let mut rest = lower.as_str();
            while let Some(at) = rest.find("issue ") {
                rest = &rest[at + "issue ".len()..];
                if rest.starts_with(|c: char| c.is_ascii_digit()) {
                    found.push(format!(
                        "{relative}:{}: an issue number in: {line}",
                        index + 1
                    ));
                }
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn absolute_paths_are_found_where_a_word_starts_and_devices_pass() {
        assert_eq!(
            absolute_paths("run `/srv/data/a.txt` and (/opt/bin/tool) > /dev/null"),
            ["/srv/data/a.txt", "/opt/bin/tool"]
        );
        assert!(absolute_paths("see docs/solving.md, a/b/c, 1/2 and </svg>").is_empty());
        assert_eq!(absolute_paths("--out=/srv/x/y"), ["/srv/x/y"]);
    }

    #[test]
    fn paths_out_of_the_clone_are_found_from_where_they_are_read() {
        // From the root, `../shared/…` leaves the clone; `docs/../README.md` does not.
        assert_eq!(
            paths_outside_the_clone("../shared/data/9x9/a.txt,1,2 and docs/../README.md", 0),
            ["../shared/data/9x9/a.txt"]
        );
        // A CSV row's first field, a quoted JSON string.
        assert_eq!(
            paths_outside_the_clone(r#"  "../x/y.txt", "file": "../../z""#, 0),
            ["../x/y.txt", "../../z"]
        );
        // One folder down, one step up stays inside.
        assert!(paths_outside_the_clone("(../benches/reports/README.md)", 1).is_empty());
        assert!(paths_outside_the_clone("a..b and 1...3", 0).is_empty());
        // A link is read from its document's folder, the rest from the root.
        let text = "see [the reports](../benches/reports/README.md), then `D=../shared/data`";
        let found = paths_a_clone_lacks("docs/compare.md", text, 1);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].contains("`../shared/data`"), "{found:?}");
        assert_eq!(
            paths_a_clone_lacks("README.md", "[x](../elsewhere.md)", 0).len(),
            1
        );
    }

    #[test]
    fn slugs_follow_github() {
        assert_eq!(slug("9×9 sets"), "99-sets");
        assert_eq!(slug("Hard 25×25"), "hard-2525");
        assert_eq!(slug("How the figures are made"), "how-the-figures-are-made");
        assert_eq!(slug("Random k-SAT"), "random-k-sat");
        assert_eq!(slug("Encodings and DIMACS"), "encodings-and-dimacs");
        assert_eq!(slug("V⁺/V⁻ reduction"), "vv-reduction");
        assert_eq!(slug("snake_case stays"), "snake_case-stays");
        assert_eq!(slug("Prüfung"), "prüfung");
        assert_eq!(slug("e\u{301}t\u{e9}"), "e\u{301}t\u{e9}");
    }

    #[test]
    fn headings_become_anchors_as_rendered() {
        let text = "# Title\n## `--report` and [plots](x.md)\n```\n# not a heading\n```\n## Title\n#hashtag\n";
        let found = anchors(text);
        let expected: BTreeSet<String> = ["title", "--report-and-plots", "title-1"]
            .map(String::from)
            .into();
        assert_eq!(found, expected);
    }

    #[test]
    fn links_outside_code_are_found() {
        let text = "See [a](a.md#x) and ![b](img/b.svg \"title\"), not `[c](c.md)`.\n\
                    ```\n[d](d.md)\n```\n[ref]: docs/e.md\n";
        let found: Vec<String> = links(text).into_iter().map(|(_, t)| t).collect();
        assert_eq!(found, vec!["a.md#x", "img/b.svg", "docs/e.md"]);
    }
}
