//! Compressed inputs through the real binary: the fixtures in `tests/fixtures/compressed/`
//! were made by the system's `xz -9`, `gzip -9 -n` and `bzip2 -9` from shipped plain files
//! (`cnf/9x9/inkala.extended-reduced.cnf`, `tests/fixtures/minimal-40.txt`,
//! `tests/fixtures/expert-20.txt`), so these tests read what the standard tools write.
//! Outputs named `*.xz`, `*.gz` or `*.bz2` are written compressed.
#![cfg(feature = "compression")]

mod common;

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use common::{assert_exit, fixture, run, run_in, stderr, stdout, temp_dir};
use sudosat::compression::{decompressed, Compression};
use sudosat::grid::{check_solution, read_puzzles, Source};

fn compressed(name: &str) -> PathBuf {
    fixture("compressed").join(name)
}

fn plain_cnf() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("cnf/9x9/inkala.extended-reduced.cnf")
}

fn arg(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// The `v` lines of a `sat` run that answered SAT.
fn model_lines(out: &std::process::Output) -> String {
    assert_exit(out, 10);
    stdout(out)
        .lines()
        .filter(|l| l.starts_with('v'))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The model `sat` prints for the plain golden CNF.
fn plain_model() -> String {
    model_lines(&run(&["sat", arg(&plain_cnf())]))
}

#[test]
fn sat_reads_xz_gzip_and_bzip2_formulas_as_the_plain_file() {
    let plain_out = run(&["sat", arg(&plain_cnf())]);
    let header = stdout(&plain_out).lines().next().unwrap().to_string();
    let plain = model_lines(&plain_out);
    assert!(plain.ends_with(" 0"), "{plain}");
    for ext in ["xz", "gz", "bz2"] {
        let file = compressed(&format!("inkala.extended-reduced.cnf.{ext}"));
        let out = run(&["sat", arg(&file)]);
        // The same formula (the header line gives its variables and clauses) and the same
        // model: Inkala's puzzle has one solution, and every variable is a (cell, digit).
        assert_eq!(stdout(&out).lines().next(), Some(header.as_str()), "{ext}");
        assert_eq!(model_lines(&out), plain, "{ext}");
    }
}

#[test]
fn sat_reads_a_compressed_formula_from_standard_input() {
    let bytes = std::fs::read(compressed("inkala.extended-reduced.cnf.xz")).unwrap();
    let dir = temp_dir();
    let out = run_in(dir.path(), &["sat", "-"], &bytes);
    assert_eq!(model_lines(&out), plain_model());
}

#[test]
fn a_truncated_compressed_file_is_an_error_naming_the_file_and_format() {
    let dir = temp_dir();
    for (ext, format) in [("xz", "xz"), ("gz", "gzip"), ("bz2", "bzip2")] {
        let bytes =
            std::fs::read(compressed(&format!("inkala.extended-reduced.cnf.{ext}"))).unwrap();
        let cut = dir.path().join(format!("cut.cnf.{ext}"));
        std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
        let out = run(&["sat", arg(&cut)]);
        assert_exit(&out, 2);
        let err = stderr(&out);
        assert!(err.contains(arg(&cut)), "{ext}: {err}");
        assert!(
            err.contains(&format!("damaged {format} data")),
            "{ext}: {err}"
        );
        // No answer is printed for a formula read only in part.
        assert!(!stdout(&out).contains("s SATISFIABLE"), "{ext}");
    }
}

#[test]
fn solve_reads_compressed_puzzle_files_and_checks_every_answer() {
    for (name, plain) in [
        ("minimal-40.txt.gz", "minimal-40.txt"),
        ("expert-20.txt.xz", "expert-20.txt"),
    ] {
        let out = run(&["solve", arg(&compressed(name))]);
        assert_exit(&out, 0);
        let expected = run(&["solve", arg(&fixture(plain))]);
        assert_eq!(stdout(&out), stdout(&expected), "{name}");
        let puzzles = read_puzzles(
            std::fs::File::open(fixture(plain)).unwrap(),
            &Source::Text,
            None,
        )
        .unwrap();
        let solutions = read_puzzles(stdout(&out).as_bytes(), &Source::Text, None).unwrap();
        assert_eq!(solutions.len(), puzzles.len(), "{name}");
        for (puzzle, solution) in puzzles.iter().zip(&solutions) {
            assert!(check_solution(puzzle, solution).is_valid(), "{name}");
        }
    }
}

#[test]
fn decode_reads_a_compressed_formula_and_model() {
    let dir = temp_dir();
    let out = run(&["sat", arg(&plain_cnf())]);
    assert_exit(&out, 10);
    let model = dir.path().join("model.txt.gz");
    let mut gz = flate2::write::GzEncoder::new(
        std::fs::File::create(&model).unwrap(),
        flate2::Compression::default(),
    );
    gz.write_all(&out.stdout).unwrap();
    gz.finish().unwrap();
    let cnf = compressed("inkala.extended-reduced.cnf.bz2");
    let decoded = run(&["decode", "--cnf", arg(&cnf), arg(&model)]);
    assert_exit(&decoded, 0);
    let solution = std::fs::read_to_string(fixture("solutions/inkala-line.txt")).unwrap();
    let grid = read_puzzles(stdout(&decoded).as_bytes(), &Source::Text, None).unwrap();
    let expected = read_puzzles(solution.as_bytes(), &Source::Text, None).unwrap();
    assert_eq!(grid, expected);
}

#[test]
fn an_output_named_gz_bz2_or_xz_is_written_compressed() {
    let dir = temp_dir();
    let golden = std::fs::read(plain_cnf()).unwrap();
    let source = fixture("inkala-line.txt");
    for (ext, kind) in [
        ("xz", Compression::Xz),
        ("gz", Compression::Gzip),
        ("bz2", Compression::Bzip2),
    ] {
        let out_name = format!("inkala.cnf.{ext}");
        let out = run_in(
            dir.path(),
            &[
                "encode",
                arg(&source),
                "--encoding",
                "extended",
                "--reduce",
                "-o",
                &out_name,
            ],
            b"",
        );
        assert_exit(&out, 0);
        let bytes = std::fs::read(dir.path().join(&out_name)).unwrap();
        let (found, mut reader) = decompressed(bytes.as_slice()).unwrap();
        assert_eq!(found, kind);
        let mut text = Vec::new();
        reader.read_to_end(&mut text).unwrap();
        // The golden file of `cnf/`, byte for byte, inside the compressed stream.
        assert!(text == golden, "{ext}: not the golden CNF");
        // And the binary reads its own output back.
        let out = run_in(dir.path(), &["sat", &out_name], b"");
        assert_eq!(model_lines(&out), plain_model());
    }
}

#[test]
fn a_compressed_compare_csv_is_read_back_by_from_csv() {
    let dir = temp_dir();
    let source = fixture("expert-20.txt");
    let out = run_in(
        dir.path(),
        &[
            "compare",
            arg(&source),
            "--solvers",
            "cdcl",
            "--csv",
            "runs.csv.gz",
        ],
        b"",
    );
    assert_exit(&out, 0);
    let bytes = std::fs::read(dir.path().join("runs.csv.gz")).unwrap();
    assert_eq!(Compression::detect(&bytes), Compression::Gzip);
    let back = run_in(dir.path(), &["compare", "--from-csv", "runs.csv.gz"], b"");
    assert_exit(&back, 0);
    let row = stdout(&back)
        .lines()
        .find(|l| l.starts_with("cdcl/"))
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "));
    // 20 runs, 20 solved: the rows written are the rows read.
    assert_eq!(row.as_deref(), Some("cdcl/extended+reduced 20 20"));
}

#[test]
fn a_format_not_read_is_named_not_parsed() {
    let dir = temp_dir();
    // The zstd frame magic and a few bytes: what `zstd` writes first.
    let zstd = dir.path().join("f.cnf.zst");
    std::fs::write(&zstd, [0x28, 0xb5, 0x2f, 0xfd, 0x24, 0x00, 0x01, 0x00]).unwrap();
    for args in [vec!["sat", arg(&zstd)], vec!["solve", arg(&zstd)]] {
        let out = run(&args);
        assert_exit(&out, 2);
        let err = stderr(&out);
        assert!(err.contains(arg(&zstd)), "{args:?}: {err}");
        assert!(
            err.contains("zstd data, which is not read here"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn encode_out_dir_compresses_every_file_when_asked() {
    let dir = temp_dir();
    let source = fixture("minimal-40.txt");
    for extra in [
        &[][..],
        &["--compress", "gz"][..],
        &["--compress", "bz2"][..],
    ] {
        let mut args = vec!["encode", arg(&source), "--reduce", "--out-dir"];
        args.push(if extra.is_empty() { "plain" } else { extra[1] });
        args.extend_from_slice(extra);
        assert_exit(&run_in(dir.path(), &args, b""), 0);
    }
    for i in 1..=40 {
        let plain = std::fs::read(dir.path().join(format!("plain/puzzle-{i:04}.cnf"))).unwrap();
        for (sub, kind) in [("gz", Compression::Gzip), ("bz2", Compression::Bzip2)] {
            let file = dir.path().join(format!("{sub}/puzzle-{i:04}.cnf.{sub}"));
            let bytes = std::fs::read(&file).unwrap();
            let (found, mut reader) = decompressed(bytes.as_slice()).unwrap();
            let mut text = Vec::new();
            reader.read_to_end(&mut text).unwrap();
            assert_eq!(found, kind);
            assert!(text == plain, "{}: not the plain CNF", file.display());
        }
    }
    // Only the 40 files (and no temporary directory) in each.
    for sub in ["plain", "gz", "bz2"] {
        assert_eq!(std::fs::read_dir(dir.path().join(sub)).unwrap().count(), 40);
    }
}

#[test]
fn decode_names_stdin_when_the_model_there_cannot_be_read() {
    let cnf = compressed("inkala.extended-reduced.cnf.gz");
    let dir = temp_dir();
    // zstd's magic number: a format named and refused before any model line is read.
    let zstd = run_in(
        dir.path(),
        &["decode", "--cnf", arg(&cnf), "-"],
        &[0x28, 0xb5, 0x2f, 0xfd, 0, 0, 0, 0],
    );
    assert_exit(&zstd, 2);
    assert!(
        stderr(&zstd).contains("<stdin>: zstd data"),
        "{}",
        stderr(&zstd)
    );
    // A gzip stream cut short: the decompressor's error, again under stdin's name.
    let out = run(&["sat", arg(&plain_cnf())]);
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&out.stdout).unwrap();
    let mut bytes = gz.finish().unwrap();
    bytes.truncate(bytes.len() / 2);
    let cut = run_in(dir.path(), &["decode", "--cnf", arg(&cnf), "-"], &bytes);
    assert_exit(&cut, 2);
    assert!(stderr(&cut).contains("<stdin>"), "{}", stderr(&cut));
    assert!(stderr(&cut).contains("gzip"), "{}", stderr(&cut));
}
