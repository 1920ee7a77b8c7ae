//! The report directory: the page and the data it was drawn from, built under a temporary
//! name beside the directory and renamed into place, so that a reader sees the old report
//! or the new one, never half of one; a directory that holds anything else is refused.

use std::fs;
use std::io::Write;
use std::path::Path;

use super::page::{render_html, ReportOptions, REPORT_JSON, RUNS_CSV, SUMMARY_CSV};
use crate::compare::output::{
    sidecar_path, write_csv, write_json, write_meta, write_summary_csv, Meta, Provenance,
};
use crate::compare::summary::Analysis;
use crate::compare::{CompareError, Comparison};

/// The JSON document of `--json` without its `runs` (they are in `runs.csv`), so the
/// directory does not hold every run twice.
fn write_report_json(
    w: &mut dyn Write,
    comparison: &Comparison,
    analysis: &Analysis,
    provenance: &Provenance,
) -> Result<(), CompareError> {
    let mut full = Vec::new();
    write_json(&mut full, comparison, analysis, Some(provenance))?;
    let fail = |e: serde_json::Error| CompareError::Output {
        what: "JSON",
        source: e.into(),
    };
    let mut doc: serde_json::Value = serde_json::from_slice(&full).map_err(fail)?;
    if let Some(map) = doc.as_object_mut() {
        map.remove("runs");
    }
    serde_json::to_writer_pretty(&mut *w, &doc).map_err(fail)?;
    writeln!(w).map_err(io_error("JSON"))
}

fn io_error(what: &'static str) -> impl Fn(std::io::Error) -> CompareError {
    move |source| CompareError::Output { what, source }
}

/// Writes `file` in `dir` with `fill`.
fn write_file(
    dir: &Path,
    file: &str,
    fill: impl FnOnce(&mut dyn Write) -> Result<(), CompareError>,
) -> Result<(), CompareError> {
    let f = fs::File::create(dir.join(file)).map_err(io_error("report"))?;
    let mut w = std::io::BufWriter::new(f);
    fill(&mut w)?;
    w.flush().map_err(io_error("report"))
}

/// Why an existing `dir` may not be replaced by a report, or `None` when it is empty or
/// holds only files a report writes (an earlier report).
fn not_a_report(dir: &Path) -> Option<String> {
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) => return Some(format!("not a readable directory: {e}")),
    };
    let sidecar = sidecar_path(Path::new(RUNS_CSV));
    let own = [
        Path::new("index.html"),
        Path::new(RUNS_CSV),
        sidecar.as_path(),
        Path::new(REPORT_JSON),
        Path::new(SUMMARY_CSV),
    ];
    for entry in entries {
        let Ok(entry) = entry else {
            return Some("an entry cannot be read".to_string());
        };
        let name = entry.file_name();
        let is_file = entry.file_type().is_ok_and(|t| t.is_file());
        if !is_file || !own.contains(&Path::new(&name)) {
            return Some(format!(
                "it holds `{}`, which a report does not write",
                name.to_string_lossy()
            ));
        }
    }
    None
}

/// Writes the report directory `dir`: `index.html`, `runs.csv`, `runs.meta.json`,
/// `report.json` and `summary.csv`. Everything is written into a temporary directory beside
/// `dir`, then renamed into place; an existing report at `dir` is replaced the same way. A
/// `dir` that exists and holds anything but a report's own files is refused, so no
/// unrelated file is ever removed.
///
/// # Errors
/// [`CompareError::Output`] when a file cannot be written or `dir` is not a report, and the
/// errors of [`render_html`].
pub fn write_report(
    dir: &Path,
    comparison: &Comparison,
    analysis: &Analysis,
    options: &ReportOptions,
) -> Result<(), CompareError> {
    let refuse = |reason: String| CompareError::Output {
        what: "report",
        source: std::io::Error::other(reason),
    };
    if dir.exists() {
        if let Some(reason) = not_a_report(dir) {
            return Err(refuse(format!(
                "{} exists and is not a report directory ({reason}); choose another",
                dir.display()
            )));
        }
    }
    let html = render_html(comparison, analysis, options)?;
    let parent = dir
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let tmp = tempfile::Builder::new()
        .prefix(".sudosat-report-")
        .tempdir_in(parent)
        .map_err(|e| {
            refuse(format!(
                "{}: cannot create a directory: {e}",
                parent.display()
            ))
        })?;
    let meta = Meta::of(comparison, options.provenance.clone());
    write_file(tmp.path(), "index.html", |w| {
        w.write_all(html.as_bytes()).map_err(io_error("report"))
    })?;
    write_file(tmp.path(), RUNS_CSV, |w| write_csv(w, &comparison.runs))?;
    let sidecar = sidecar_path(Path::new(RUNS_CSV));
    write_file(tmp.path(), &sidecar.to_string_lossy(), |w| {
        write_meta(w, &meta)
    })?;
    write_file(tmp.path(), REPORT_JSON, |w| {
        write_report_json(w, comparison, analysis, &options.provenance)
    })?;
    write_file(tmp.path(), SUMMARY_CSV, |w| write_summary_csv(w, analysis))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(tmp.path(), fs::Permissions::from_mode(0o755))
            .map_err(io_error("report"))?;
    }
    let old = if dir.exists() {
        let old = tempfile::Builder::new()
            .prefix(".sudosat-old-report-")
            .tempdir_in(parent)
            .map_err(io_error("report"))?;
        let old_path = old.path().join("old");
        fs::rename(dir, &old_path)
            .map_err(|e| refuse(format!("{}: cannot replace: {e}", dir.display())))?;
        Some(old)
    } else {
        None
    };
    let tmp_path = tmp.keep();
    if let Err(e) = fs::rename(&tmp_path, dir) {
        let _ = fs::remove_dir_all(&tmp_path);
        if let Some(old) = &old {
            let _ = fs::rename(old.path().join("old"), dir);
        }
        return Err(refuse(format!("{}: cannot write: {e}", dir.display())));
    }
    drop(old); // removes the replaced report
    Ok(())
}
