//! The example reports of `benches/reports` redrawn from their saved rows, as
//! `scripts/redraw-reports.sh` redraws them, give the committed files byte for byte: the
//! page, the summary, the JSON, the rows with their sidecar and the cactus plot the README
//! shows. A change to the tables, the plots or the page that alters a report shows here
//! (then run the script and commit the new pages with the change).

mod common;

use std::fs;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::Stdio;

use common::{repo_root, stderr, sudosat, temp_dir};

/// The files `compare --report DIR` writes, all compared.
const REPORT_FILES: [&str; 5] = [
    "runs.csv",
    "runs.meta.json",
    "summary.csv",
    "report.json",
    "index.html",
];

/// The `--by` a report was drawn with, read from its `report.json` as the script reads it.
fn group_by(report: &Path) -> Option<String> {
    let json: serde_json::Value =
        serde_json::from_slice(&fs::read(report.join("report.json")).expect("report.json"))
            .expect("report.json parses");
    json["group_by"].as_str().map(str::to_string)
}

/// The `<svg>` inside `<figure id="cactus">` of a page, cut as the script's awk cuts it.
fn cactus_of(page: &str) -> String {
    let start = page
        .find("<figure id=\"cactus\">")
        .expect("a cactus figure")
        + 20;
    let rest = &page[start..];
    let end = rest.find("</svg>").expect("the figure's svg ends") + "</svg>".len();
    format!("{}\n", &rest[..end])
}

#[test]
fn redrawing_the_example_reports_from_their_rows_gives_the_committed_bytes() {
    let root = repo_root();
    let dir = temp_dir();
    let mut reports: Vec<_> = fs::read_dir(root.join("benches/reports"))
        .expect("benches/reports")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.join("runs.csv").is_file())
        .collect();
    reports.sort();
    assert_eq!(reports.len(), 3, "the README's three reports: {reports:?}");
    for report in &reports {
        let name = report.file_name().unwrap().to_str().unwrap();
        let relative = format!("benches/reports/{name}");
        let copy = dir.path().join(&relative);
        fs::create_dir_all(&copy).unwrap();
        for saved in ["runs.csv", "runs.meta.json"] {
            fs::copy(report.join(saved), copy.join(saved)).unwrap();
        }
        let rows = format!("{relative}/runs.csv");
        let mut args = vec!["compare", "-q", "--from-csv", rows.as_str()];
        let by = group_by(report);
        if let Some(by) = &by {
            args.extend(["--by", by.as_str()]);
        }
        args.extend(["--report", relative.as_str()]);
        // The page records the command that redrew it: called by its name, as the script does.
        let out = sudosat()
            .arg0("sudosat")
            .args(&args)
            .current_dir(dir.path())
            .stdin(Stdio::null())
            .output()
            .expect("sudosat runs");
        assert!(out.status.success(), "{relative}: {}", stderr(&out));
        for file in REPORT_FILES {
            let committed = fs::read(report.join(file)).unwrap();
            let redrawn = fs::read(copy.join(file)).unwrap();
            assert!(
                committed == redrawn,
                "{relative}/{file} redrawn differs from the committed file (run \
                 scripts/redraw-reports.sh and commit the reports with the change)"
            );
        }
    }
    let page = fs::read_to_string(root.join("benches/reports/minimal-200/index.html")).unwrap();
    let committed =
        fs::read_to_string(root.join("benches/reports/cactus-minimal-200.svg")).unwrap();
    assert!(
        cactus_of(&page) == committed,
        "benches/reports/cactus-minimal-200.svg is not the cactus of minimal-200's page"
    );
}
