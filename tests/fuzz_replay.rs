//! Replays the fuzz corpus and every input the fuzzers saved (`tests/fuzz/<target>/`, see
//! `examples/fuzz.rs`, `scripts/fuzz.sh` and `scripts/afl.sh`): none may panic, and the
//! inputs that once crashed, hung or blew up memory must now be clean errors. The
//! hand-written seeds are valid input; the corpus files AFL++ found (`afl-*`) need only
//! not panic.

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

use sudosat::dimacs::{
    parse_cubes, parse_dimacs, read_competition_output, read_minisat_result, read_model_auto,
    ParseOptions,
};
use sudosat::grid::{read_puzzles, Format, Source};
use sudosat::Cnf;

// The checks of the differential and CSV targets, shared with the AFL package (which is
// no dependency of these tests).
#[path = "../fuzz/afl/src/differential.rs"]
mod differential;
#[path = "../fuzz/afl/src/saved_runs.rs"]
mod saved_runs;

fn inputs(target: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fuzz")
        .join(target);
    let mut out = Vec::new();
    for sub in [dir.join("corpus"), dir] {
        for entry in fs::read_dir(&sub).unwrap_or_else(|e| panic!("{}: {e}", sub.display())) {
            let path = entry.unwrap().path();
            if path.is_file() {
                out.push(path);
            }
        }
    }
    out.sort();
    assert!(!out.is_empty(), "no fuzz inputs for {target}");
    out
}

/// Whether the fuzzer saved this input as a finding (rather than a corpus seed).
fn is_finding(path: &Path) -> bool {
    let name = path.file_name().unwrap().to_string_lossy();
    ["crash-", "hang-", "memory-", "slow-"]
        .iter()
        .any(|p| name.starts_with(p))
}

/// Whether this input is a hand-written seed, which must be valid input: neither a finding
/// nor a corpus file AFL++ found.
fn is_seed(path: &Path) -> bool {
    let name = path.file_name().unwrap().to_string_lossy();
    !is_finding(path) && !name.starts_with("afl-")
}

#[test]
fn grid_inputs_never_panic() {
    let mut seeds_ok = 0;
    for path in inputs("grid") {
        let data = fs::read(&path).unwrap();
        for format in [
            None,
            Some(Format::Line),
            Some(Format::Block),
            Some(Format::Grid),
        ] {
            let _ = read_puzzles(data.as_slice(), &Source::Text, format);
        }
        let _ = read_puzzles(data.as_slice(), &Source::Text, Some(Format::Csv2));
        if is_seed(&path) {
            let grids = read_puzzles(data.as_slice(), &Source::Text, None)
                .unwrap_or_else(|e| panic!("seed {} must parse: {e}", path.display()));
            assert!(grids.iter().all(|g| g.side() >= 4), "{}", path.display());
            seeds_ok += 1;
        }
    }
    assert!(seeds_ok >= 6, "only {seeds_ok} grid seeds");
}

#[test]
fn dimacs_inputs_never_panic() {
    for path in inputs("dimacs") {
        let data = fs::read(&path).unwrap();
        let mut cnf = Cnf::new();
        let result = parse_dimacs(data.as_slice(), "fuzz", &mut cnf, ParseOptions::default());
        let cubes = parse_cubes(data.as_slice(), "fuzz", 10);
        if is_seed(&path) && path.extension().is_some_and(|e| e == "cnf" || e == "icnf") {
            let report = result.unwrap_or_else(|e| panic!("seed {}: {e}", path.display()));
            assert_eq!(report.size.clauses, cnf.num_clauses());
            assert_eq!(report.incremental, path.extension().unwrap() == "icnf");
        }
        if is_seed(&path) && path.extension().is_some_and(|e| e == "cubes") {
            let cubes = cubes.unwrap_or_else(|e| panic!("seed {}: {e}", path.display()));
            assert!(!cubes.is_empty(), "{}", path.display());
        }
    }
}

#[test]
fn model_inputs_never_panic_and_findings_are_errors() {
    for target in ["minisat", "competition"] {
        for path in inputs(target) {
            let data = fs::read(&path).unwrap();
            let minisat = read_minisat_result(data.as_slice(), "fuzz", 10);
            let competition = read_competition_output(data.as_slice(), "fuzz", 10);
            let auto = read_model_auto(data.as_slice(), "fuzz", 10);
            if is_finding(&path) {
                // Every finding so far was a literal above the formula's variables.
                let own = if target == "minisat" {
                    &minisat
                } else {
                    &competition
                };
                assert!(own.is_err(), "{} parsed: {own:?}", path.display());
                assert!(auto.is_err(), "{} parsed: {auto:?}", path.display());
            } else if is_seed(&path) {
                // Seeds are valid output in one convention or the other.
                auto.unwrap_or_else(|e| panic!("seed {}: {e}", path.display()));
                assert!(minisat.is_ok() || competition.is_ok(), "{}", path.display());
            }
        }
    }
}

#[test]
fn compressed_inputs_never_panic_and_seeds_decompress() {
    let mut seeds_ok = 0;
    for path in inputs("compressed") {
        let data = fs::read(&path).unwrap();
        // As the fuzzer reads them: each reader behind the decompressor, 16 MiB at most.
        let grids = sudosat::compression::decompressed(data.as_slice()).map(|(_, reader)| {
            read_puzzles(reader.take(16 << 20), &Source::Text, None).map_err(|e| e.message)
        });
        let mut cnf = Cnf::new();
        let dimacs = sudosat::compression::decompressed(data.as_slice()).map(|(_, reader)| {
            parse_dimacs(
                reader.take(16 << 20),
                "fuzz",
                &mut cnf,
                ParseOptions::default(),
            )
            .map_err(|e| e.to_string())
        });
        if !is_seed(&path) {
            continue;
        }
        // Seeds are whole streams of puzzles or formulas.
        if path.to_string_lossy().contains(".cnf.") {
            assert!(
                matches!(dimacs, Ok(Ok(_))),
                "seed {}: {dimacs:?}",
                path.display()
            );
            assert!(cnf.num_clauses() > 0, "{}", path.display());
        } else {
            assert!(
                matches!(&grids, Ok(Ok(g)) if !g.is_empty()),
                "seed {}: {grids:?}",
                path.display()
            );
        }
        seeds_ok += 1;
    }
    assert!(seeds_ok >= 8, "only {seeds_ok} compressed seeds");
}

#[test]
fn differential_inputs_agree_with_enumeration() {
    let mut formulas = 0;
    let mut grids = 0;
    for path in inputs("differential") {
        let data = fs::read(&path).unwrap();
        // Panics, naming the backend, on any disagreement or wrong model or solution.
        differential::check(&data);
        if is_seed(&path) {
            match differential::decode(&data) {
                Some(differential::Case::Formula(..)) => formulas += 1,
                Some(differential::Case::Grid(..)) => grids += 1,
                None => panic!("seed {} decodes to no case", path.display()),
            }
        }
    }
    assert!(
        formulas >= 5 && grids >= 5,
        "{formulas} formula and {grids} grid seeds"
    );
}

#[test]
fn saved_csv_inputs_never_panic_and_seeds_read() {
    let mut seeds_ok = 0;
    for path in inputs("csv") {
        let data = fs::read(&path).unwrap();
        let read = saved_runs::check(&data);
        if is_seed(&path) {
            assert!(read, "seed {} must read", path.display());
            seeds_ok += 1;
        }
    }
    assert!(seeds_ok >= 5, "only {seeds_ok} CSV seeds");
}
