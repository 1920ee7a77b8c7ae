//! The page's "How it was measured" section: the command line (and the one that redrew
//! it), when, the machine, the version, the runs, the time limit and the threads, and the
//! shards a study was measured in.

use std::fmt::Write as _;

use super::html::escape;
use crate::compare::output::Provenance;
use crate::compare::summary::{runs_planned, seconds, Analysis};
use crate::compare::Comparison;

pub(super) fn write_provenance(
    h: &mut String,
    comparison: &Comparison,
    analysis: &Analysis,
    p: &Provenance,
) {
    let limit = comparison.timeout_s.map_or_else(
        || "none".to_string(),
        |t| format!("{} s per solve", seconds(t)),
    );
    let threads = if comparison.parallel {
        format!(
            "{} threads (puzzles in parallel, each solve on one)",
            comparison.jobs
        )
    } else {
        "sequential, one solve at a time".to_string()
    };
    let threads = match crate::compare::summary::threaded_note(comparison) {
        Some(note) => format!("{threads}; {note}"),
        None => threads,
    };
    let machine = &p.machine;
    let cpu = machine.cpu.as_deref().unwrap_or("unknown CPU");
    let _ = write!(
        h,
        "<h2 id=\"how\">How it was measured</h2>\n<dl>\
         <dt>Command</dt><dd><code id=\"command\">{}</code></dd>",
        escape(&shell_words(&p.command_line))
    );
    if let Some(redrawn) = &p.redrawn_by {
        let _ = write!(
            h,
            "<dt>Redrawn from saved rows by</dt><dd><code>{}</code></dd>",
            escape(&shell_words(redrawn))
        );
    }
    let _ = writeln!(
        h,
        "<dt>Started</dt><dd>{}</dd><dt>Machine</dt><dd>{}, {}, {} logical CPUs, {}</dd>\
         <dt>Versions</dt><dd>sudosat {}</dd>\
         <dt>Runs</dt><dd id=\"runs\">{}: {} runs made{}</dd>\
         <dt>Time limit</dt><dd id=\"limit\">{}</dd><dt>Threads</dt><dd>{}</dd></dl>",
        escape(or_unknown(&p.started_utc)),
        escape(or_unknown(&machine.os)),
        escape(or_unknown(&machine.arch)),
        machine.cpus,
        escape(cpu),
        escape(or_unknown(&p.sudosat_version)),
        escape(&runs_planned(comparison)),
        comparison.runs.len(),
        if comparison.interrupted {
            " (interrupted: the figures cover the runs made)"
        } else {
            ""
        },
        escape(&limit),
        escape(&threads),
    );
    write_shards(h, p);
    let _ = analysis;
}

/// The shard a sharded run made, or how a merged comparison was put together: the shards
/// merged, those missing, and the hosts when they are several (each with its shards).
fn write_shards(h: &mut String, p: &Provenance) {
    if let Some(merged) = &p.merged {
        let _ = write!(h, "<h3 id=\"shards\">Shards</h3>\n<ul>");
        for note in merged.notes() {
            let _ = write!(h, "<li>{}</li>", escape(&note));
        }
        let _ = writeln!(h, "</ul>");
        let _ = write!(
            h,
            "<table id=\"hosts\"><tr><th>host</th><th>CPU</th><th>shards</th><th>runs</th></tr>"
        );
        for host in merged.hosts() {
            let shards: Vec<String> = host.shards.iter().map(usize::to_string).collect();
            let _ = write!(
                h,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                escape(&host.host),
                escape(host.cpu.as_deref().unwrap_or("unknown CPU")),
                escape(&shards.join(", ")),
                host.runs
            );
        }
        let _ = writeln!(h, "</table>");
    } else if let Some(study) = p.study.as_ref().filter(|s| s.shard.count > 1) {
        let _ = writeln!(
            h,
            "<p id=\"shards\">Shard {} of study {}, measured on {}: {} runs.</p>",
            study.shard,
            escape(&study.id),
            escape(&study.host),
            study.runs
        );
    }
}

fn or_unknown(s: &str) -> &str {
    if s.is_empty() {
        "unknown"
    } else {
        s
    }
}

/// Arguments joined as a shell would read them back (quoted when needed).
fn shell_words(args: &[String]) -> String {
    if args.is_empty() {
        return "unknown".to_string();
    }
    args.iter()
        .map(|a| {
            let plain = !a.is_empty()
                && a.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_./,:=+@%".contains(c));
            if plain {
                a.clone()
            } else {
                format!("'{}'", a.replace('\'', "'\\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shell_words_quote_what_a_shell_would_split() {
        let args = [
            "sudosat",
            "compare",
            "--solvers",
            "external:cadical -q",
            "it's",
        ];
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        assert_eq!(
            shell_words(&args),
            "sudosat compare --solvers 'external:cadical -q' 'it'\\''s'"
        );
    }
}
