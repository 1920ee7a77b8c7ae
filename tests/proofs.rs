//! DRAT proofs checked by the independent checker drat-trim: every UNSAT answer of the
//! backend conformance formulas on every backend that writes proofs, uniqueness proofs of
//! 9×9, 16×16 and 25×25 puzzles, unsolvable puzzles, a tampered proof, and the CLI's
//! `sat --proof`, `--proof-dir` and `--certify`.

mod common;

use std::path::{Path, PathBuf};
use std::time::Duration;

use sudosat::backend::{
    BackendError, BackendKind, BackendSpec, Lookahead, ProofFormat, ProofTarget, SatOutcome,
};
use sudosat::dimacs::write_formula;
use sudosat::encode::{Encoding, SudokuEncoding};
use sudosat::grid::{check_grid, check_solution, Cell, Digit};
use sudosat::solve::sat::SatSolver;
use sudosat::solve::{SolveOutcome, Solver};
use sudosat::{ClauseSink, Cnf, Grid, Lit};

use common::{
    assert_exit, cnf_of, drat_trim, drat_verifies, external_available, path, pigeonhole,
    read_fixture, run_in, stdout, temp_dir, write_script,
};

/// Every backend to try: each kind (the DPLL at each lookahead), external ones whose binary
/// is installed. Which of them write proofs, each says itself.
fn backend_specs() -> Vec<BackendSpec> {
    let mut specs = Vec::new();
    for kind in BackendKind::ALL {
        match kind {
            _ if !kind.is_built() => eprintln!("skipped: {}", kind.not_built()),
            BackendKind::Dpll => specs.extend(
                Lookahead::ALL
                    .into_iter()
                    .map(|l| BackendSpec::new(kind).with_lookahead(l)),
            ),
            BackendKind::Minisat => {
                if external_available("minisat") {
                    specs.push(BackendSpec::new(kind));
                }
            }
            BackendKind::External => {
                for (binary, command) in [
                    ("cadical", "cadical"),
                    ("cadical", "cadical -q {cnf} {proof}"),
                    ("picosat", "picosat"),
                ] {
                    if external_available(binary) {
                        specs.push(BackendSpec::external(command));
                    }
                }
            }
            _ => specs.push(BackendSpec::new(kind)),
        }
    }
    for spec in &mut specs {
        spec.timeout = Some(Duration::from_secs(120));
    }
    specs
}

fn label(spec: &BackendSpec) -> String {
    format!("{} ({})", spec.label(), spec.lookahead.name())
}

/// The backends that write proofs; the others must refuse a proof with `Unsupported`.
fn proving_specs() -> Vec<BackendSpec> {
    let mut proving = Vec::new();
    let dir = temp_dir();
    for spec in backend_specs() {
        let mut backend = spec.create().expect("backend created");
        let target = ProofTarget::text(dir.path().join("refused.drat"));
        if backend.writes_proofs() {
            proving.push(spec);
        } else {
            match backend.set_proof(Some(target)) {
                Err(BackendError::Unsupported { what, .. }) => {
                    assert!(what.contains("proof"), "{}: {what}", label(&spec))
                }
                other => panic!("{}: expected Unsupported, got {other:?}", label(&spec)),
            }
            assert!(
                !dir.path().join("refused.drat").exists(),
                "{}",
                label(&spec)
            );
        }
    }
    let names: Vec<String> = proving.iter().map(|s| s.kind.name().to_string()).collect();
    for needed in ["dpll", "varisat"] {
        assert!(names.iter().any(|n| n == needed), "{needed} writes proofs");
    }
    proving
}

/// Solves `cnf` (then, while SAT and `block` is set, blocks each model over its variables)
/// with a proof; when the last answer is UNSAT, checks the proof of the formula the backend
/// got with drat-trim. Returns the number of models found.
fn prove(
    drat: &Path,
    spec: &BackendSpec,
    cnf: &Cnf,
    block: bool,
    format: ProofFormat,
    dir: &Path,
) -> usize {
    let what = label(spec);
    let proof = dir.join("proof.drat");
    let mut backend = spec.create().expect("backend created");
    backend
        .set_proof(Some(ProofTarget {
            path: proof.clone(),
            format,
        }))
        .expect(&what);
    let mut formula = cnf.clone();
    cnf.stream_into(backend.as_mut());
    let mut models = 0;
    loop {
        match backend.solve().expect(&what) {
            SatOutcome::Unsat => break,
            SatOutcome::Sat(model) => {
                assert_eq!(formula.first_falsified(&model), None, "{what}");
                models += 1;
                if !block {
                    return models;
                }
                let blocking =
                    model.blocking_clause((0..cnf.num_vars()).map(sudosat::Var::from_index));
                backend.add_clause(&blocking);
                formula.add_clause(&blocking);
                assert!(models < 100, "runaway enumeration");
            }
        }
    }
    backend.finish_proof().expect(&what);
    let file = dir.join("formula.cnf");
    write_formula(std::fs::File::create(&file).unwrap(), &formula).unwrap();
    assert!(
        drat_verifies(drat, &file, &proof),
        "{what}: proof of {file:?} rejected ({format:?})"
    );
    models
}

#[test]
fn every_unsat_answer_of_the_conformance_formulas_is_proved() {
    let Some(drat) = drat_trim() else { return };
    let dir = temp_dir();
    let unsat = [
        cnf_of(&[&[]]),
        cnf_of(&[&[1, 2], &[], &[-1]]),
        cnf_of(&[&[1, 2], &[-1, 2], &[1, -2], &[-1, -2]]),
        cnf_of(&[&[1], &[-1]]),
        pigeonhole(4, 3),
        pigeonhole(5, 4),
    ];
    for spec in proving_specs() {
        for (i, cnf) in unsat.iter().enumerate() {
            for format in [ProofFormat::Text, ProofFormat::Binary] {
                let models = prove(&drat, &spec, cnf, false, format, dir.path());
                assert_eq!(models, 0, "{} formula {i}", label(&spec));
            }
        }
        // Model counting: the proof refutes the formula plus every blocking clause.
        assert_eq!(
            prove(
                &drat,
                &spec,
                &cnf_of(&[&[1, 2, 3]]),
                true,
                ProofFormat::Text,
                dir.path()
            ),
            7
        );
        assert_eq!(
            prove(
                &drat,
                &spec,
                &pigeonhole(4, 4),
                true,
                ProofFormat::Text,
                dir.path()
            ),
            24
        );
    }
}

/// r1 holds 1…8 and r2c9 holds 9: r1c9 has no candidate left.
fn no_candidate_puzzle() -> Grid {
    let mut line = String::from("12345678.");
    line.push_str("........9");
    line.push_str(&".".repeat(63));
    line.parse().expect("valid puzzle")
}

/// Two 1s in the first row.
fn clashing_puzzle() -> Grid {
    let mut line = String::from("1.......1");
    line.push_str(&".".repeat(72));
    line.parse().expect("parses")
}

/// A puzzle with no clash and a candidate in every cell that unit propagation cannot refute:
/// a minimal puzzle's solution with cells blanked and one given changed to a digit that no
/// given of its units holds; the first (fixed seed) that the DPLL refutes only by search.
fn dead_end_puzzle() -> Grid {
    use rand::seq::SliceRandom;
    use rand::{Rng, SeedableRng};
    let solutions = read_fixture("solutions/minimal-40.txt");
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(13);
    for attempt in 0..2000 {
        let mut puzzle = solutions[attempt % solutions.len()].clone();
        let mut cells: Vec<u32> = (0..81).collect();
        cells.shuffle(&mut rng);
        for &c in &cells[..55] {
            puzzle.set(Cell(c), None);
        }
        let changed = cells[55 + rng.gen_range(0..26)];
        let old = puzzle.get(Cell(changed)).expect("a given");
        puzzle.set(Cell(changed), Some(Digit(1 + (old.0 % 9))));
        if !check_grid(&puzzle).is_valid() {
            continue;
        }
        let spec = BackendSpec::new(BackendKind::Dpll).with_lookahead(Lookahead::None);
        let mut solver =
            SatSolver::new(SudokuEncoding::from_name("extended+reduced").unwrap(), spec);
        let report = solver.solve(&puzzle).expect("dpll answers");
        if report.outcome == SolveOutcome::NoSolution
            && report.counters.get("decisions").unwrap_or(0) > 0
        {
            return puzzle;
        }
    }
    panic!("no dead-end puzzle found");
}

#[test]
fn unsolvable_puzzles_come_with_verified_proofs() {
    let Some(drat) = drat_trim() else { return };
    let dir = temp_dir();
    let puzzles = [
        ("clashing givens", clashing_puzzle()),
        ("a cell without candidate", no_candidate_puzzle()),
        ("a dead end found by search", dead_end_puzzle()),
    ];
    for spec in proving_specs() {
        for encoding in SudokuEncoding::ALL {
            for (what, puzzle) in &puzzles {
                let what = format!("{what}, {}, {}", encoding.name(), label(&spec));
                let mut solver = SatSolver::new(encoding, spec.clone());
                let proof = dir.path().join("p.drat");
                solver.prove_next(Some(ProofTarget::text(&proof)));
                let report = solver.solve(puzzle).expect(&what);
                assert_eq!(report.outcome, SolveOutcome::NoSolution, "{what}");
                let proven = solver.take_proof().expect(&what);
                assert_eq!(proven.proof.path, proof);
                assert_eq!(proven.blocking, 0);
                let cnf = dir.path().join("f.cnf");
                write_formula(std::fs::File::create(&cnf).unwrap(), &proven.formula).unwrap();
                assert!(drat_verifies(&drat, &cnf, &proof), "{what}");
            }
        }
    }
}

#[test]
fn a_proof_with_a_lemma_dropped_is_rejected() {
    let Some(drat) = drat_trim() else { return };
    let dir = temp_dir();
    let cnf = dir.path().join("ph.cnf");
    write_formula(std::fs::File::create(&cnf).unwrap(), &pigeonhole(5, 4)).unwrap();
    let proof = dir.path().join("ph.drat");
    let mut backend = BackendSpec::new(BackendKind::Dpll)
        .with_lookahead(Lookahead::None)
        .create()
        .unwrap();
    backend.set_proof(Some(ProofTarget::text(&proof))).unwrap();
    pigeonhole(5, 4).stream_into(backend.as_mut());
    assert_eq!(backend.solve().unwrap(), SatOutcome::Unsat);
    backend.finish_proof().unwrap();
    assert!(drat_verifies(&drat, &cnf, &proof));
    let text = std::fs::read_to_string(&proof).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.iter().filter(|l| **l == "0").count(), 1);
    // Drop one lemma at a time, from the first: some lemmas can be re-derived from the
    // others, but dropping the first one the empty clause rests on must be caught (here the
    // very first, `-11 -6 -1`: the first conflict, under decisions 1, 6 and 11, which flips
    // 11).
    let mut rejected = None;
    for (i, line) in lines.iter().enumerate() {
        if line.starts_with('d') || *line == "0" {
            continue;
        }
        let tampered: Vec<&str> = lines
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != i)
            .map(|(_, l)| *l)
            .collect();
        let bad = dir.path().join("tampered.drat");
        std::fs::write(&bad, tampered.join("\n") + "\n").unwrap();
        if !drat_verifies(&drat, &cnf, &bad) {
            rejected = Some(*line);
            break;
        }
    }
    assert_eq!(
        rejected,
        Some("-11 -6 -1 0"),
        "no single dropped lemma is caught"
    );
}

/// The `count` lines of `--proof-dir` runs: `unique (proof: …, verified)` for each.
fn check_unique_lines(out: &str, dir: &str, n: usize, first: usize) {
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), n, "{out}");
    for (i, line) in lines.iter().enumerate() {
        let k = first + i;
        // Several puzzles: each verdict after its puzzle's `FILE:LINE: `.
        let verdict = match line.split_once(": unique") {
            Some((location, rest)) if n > 1 => {
                assert!(location.contains(':'), "{out}");
                format!("unique{rest}")
            }
            _ => line.to_string(),
        };
        assert_eq!(
            verdict,
            format!("unique (proof: {dir}/puzzle-{k}.drat, verified)"),
            "{out}"
        );
    }
}

#[test]
fn uniqueness_proofs_of_65_puzzles_are_verified() {
    let Some(drat) = drat_trim() else { return };
    let dir = temp_dir();
    let files = [
        "minimal-40.txt",
        "expert-20.txt",
        "rank4-2.csv",
        "sudoku-16-1.txt",
        "sudoku-25-1.txt",
        "rank5-1.csv",
    ];
    let certify = format!("{} {{cnf}} {{proof}}", drat.display());
    let mut args: Vec<String> = vec!["count".into()];
    args.extend(files.iter().map(|f| path(f)));
    args.extend([
        "--proof-dir".into(),
        "proofs".into(),
        "--certify".into(),
        certify,
    ]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = run_in(dir.path(), &args, b"");
    assert_exit(&out, 0);
    let puzzles: Vec<Grid> = files.iter().flat_map(|f| read_fixture(f)).collect();
    assert_eq!(puzzles.len(), 65);
    check_unique_lines(&stdout(&out), "proofs", 65, 1);
    // The index names every file; each CNF is the reduced encoding plus one blocking clause
    // that excludes the known solution, and drat-trim accepts its proof here as well.
    let index = std::fs::read_to_string(dir.path().join("proofs/index.csv")).unwrap();
    let rows: Vec<&str> = index.lines().collect();
    assert_eq!(rows[0], "puzzle,file,line,verdict,cnf,proof");
    assert_eq!(rows.len(), 66);
    for (k, puzzle) in puzzles.iter().enumerate() {
        let k = k + 1;
        assert!(rows[k].starts_with(&format!("{k},")), "{}", rows[k]);
        assert!(rows[k].ends_with(&format!(
            ",unique,proofs/puzzle-{k}.cnf,proofs/puzzle-{k}.drat"
        )));
        if k % 13 != 1 {
            continue;
        }
        let cnf_path = dir.path().join(format!("proofs/puzzle-{k}.cnf"));
        let text = std::fs::read_to_string(&cnf_path).unwrap();
        assert!(text.contains("c encoding: extended+reduced\n"));
        assert!(text.contains("c verdict: unique\n"));
        assert!(text.contains("c blocking-clauses: 1 "));
        let (encoded, map) = SudokuEncoding::from_name("extended+reduced")
            .unwrap()
            .encode_to_cnf(puzzle);
        let (parsed, _) = sudosat::dimacs::parse_dimacs_str(&text, Default::default()).unwrap();
        assert_eq!(
            parsed.num_clauses(),
            encoded.num_clauses() + 1,
            "puzzle {k}"
        );
        for i in 0..encoded.num_clauses() {
            assert_eq!(parsed.clause(i), encoded.clause(i), "puzzle {k} clause {i}");
        }
        // The blocking clause is falsified exactly by the puzzle's one solution.
        let mut solver = SatSolver::new(
            SudokuEncoding::from_name("extended+reduced").unwrap(),
            BackendSpec::new(BackendKind::Dpll),
        );
        let SolveOutcome::Solved(solution) = solver.solve(puzzle).unwrap().outcome else {
            panic!("puzzle {k} is solvable")
        };
        assert!(check_solution(puzzle, &solution).is_valid());
        // The blocking clause negates exactly the solution's free cell variables.
        let mut expected: Vec<Lit> = (0..puzzle.side() * puzzle.side())
            .filter_map(|c| {
                let cell = Cell(c as u32);
                match map.var(cell, solution.get(cell).unwrap()) {
                    sudosat::encode::VarRef::Var(v) => Some(v.negative()),
                    _ => None,
                }
            })
            .collect();
        let mut blocking = parsed.clause(encoded.num_clauses()).to_vec();
        expected.sort();
        blocking.sort();
        assert_eq!(blocking, expected, "puzzle {k}");
        let proof = dir.path().join(format!("proofs/puzzle-{k}.drat"));
        assert!(drat_verifies(&drat, &cnf_path, &proof), "puzzle {k}");
    }
}

/// `cnf` with each variable spread over `copies` more: the copies and the variable lie on
/// one cycle of binary implications (every third copy negated), and each clause names a
/// copy in place of its variable, in turn. The cdcl substitutes the copies back.
fn with_equivalent_copies(cnf: &Cnf, copies: usize) -> Cnf {
    let base = cnf.num_vars();
    // Copy k of variable v, as the literal equal to v's positive literal.
    let copy = |v: usize, k: usize| {
        let var = sudosat::Var::from_index(base + v * copies + k);
        var.lit(k % 3 != 2)
    };
    let mut out = Cnf::new();
    for v in 0..base {
        let mut cycle = vec![sudosat::Var::from_index(v).positive()];
        cycle.extend((0..copies).map(|k| copy(v, k)));
        for k in 0..cycle.len() {
            out.add_clause(&[!cycle[k], cycle[(k + 1) % cycle.len()]]);
        }
    }
    for (i, clause) in cnf.clauses().enumerate() {
        let renamed: Vec<Lit> = clause
            .iter()
            .map(|&l| {
                let c = copy(l.var().index(), i % copies);
                if l.is_positive() {
                    c
                } else {
                    !c
                }
            })
            .collect();
        out.add_clause(&renamed);
    }
    out
}

#[test]
fn substituted_equivalences_keep_models_counts_and_proofs() {
    // Above 1,000 variables the cdcl probes the root and then substitutes.
    let spec = BackendSpec::new(BackendKind::Cdcl);
    let dir = temp_dir();
    let substituted =
        |backend: &dyn sudosat::backend::SatBackend| backend.counters().get("substituted").unwrap();
    // Four pigeons in four holes: 4! placements, each found once through the copies.
    let sat = with_equivalent_copies(&pigeonhole(4, 4), 70);
    assert!(sat.num_vars() > 1_000);
    let mut backend = spec.create().unwrap();
    sat.stream_into(backend.as_mut());
    let mut models = 0;
    while let SatOutcome::Sat(model) = backend.solve().unwrap() {
        assert_eq!(sat.first_falsified(&model), None);
        models += 1;
        assert!(models <= 24, "runaway enumeration");
        let blocking = model.blocking_clause((0..16).map(sudosat::Var::from_index));
        backend.add_clause(&blocking);
    }
    assert_eq!(models, 24);
    // Every copy, and later variables the blocking clauses made equivalent.
    assert!(substituted(backend.as_ref()) >= 16 * 70);
    // Seven pigeons in six holes: refuted, and drat-trim accepts the proof with the
    // rewritten clauses in it.
    let unsat = with_equivalent_copies(&pigeonhole(7, 6), 25);
    assert!(unsat.num_vars() > 1_000);
    let Some(drat) = drat_trim() else { return };
    let proof = dir.path().join("copies.drat");
    let mut backend = spec.create().unwrap();
    backend
        .set_proof(Some(ProofTarget::text(proof.clone())))
        .unwrap();
    unsat.stream_into(backend.as_mut());
    assert_eq!(backend.solve().unwrap(), SatOutcome::Unsat);
    backend.finish_proof().unwrap();
    assert!(substituted(backend.as_ref()) >= 42 * 25);
    let file = dir.path().join("copies.cnf");
    write_formula(std::fs::File::create(&file).unwrap(), &unsat).unwrap();
    assert!(drat_verifies(&drat, &file, &proof));
}

/// The uniqueness proof of a 25×25 puzzle on whose formula cdcl substitutes equivalent
/// literals (cells and units with two candidates left): drat-trim verifies it, and `solve`
/// gives the known solution.
#[test]
fn a_uniqueness_proof_through_substitution_is_verified() {
    let Some(drat) = drat_trim() else { return };
    let dir = temp_dir();
    let puzzle = path("hard/gecode-25x25-p6.txt");
    let certify = format!("{} {{cnf}} {{proof}}", drat.display());
    let args = [
        "count",
        &puzzle,
        "--proof-dir",
        "proofs",
        "--certify",
        &certify,
    ];
    let out = run_in(dir.path(), &args, b"");
    assert_exit(&out, 0);
    assert_eq!(
        stdout(&out),
        "unique (proof: proofs/puzzle-1.drat, verified)\n"
    );
    // The refuted formula (the puzzle's and the clause blocking its solution) is one
    // where cdcl substitutes.
    let out = run_in(dir.path(), &["sat", "--stats", "proofs/puzzle-1.cnf"], b"");
    assert_exit(&out, 20);
    let substituted: u64 = stdout(&out)
        .lines()
        .find_map(|line| line.strip_prefix("c substituted: "))
        .expect("a substituted counter")
        .parse()
        .unwrap();
    assert!(substituted > 50, "{substituted} substituted");
    let out = run_in(dir.path(), &["solve", &puzzle], b"");
    assert_exit(&out, 0);
    let known = std::fs::read_to_string(path("solutions/hard/gecode-25x25-p6.txt")).unwrap();
    assert_eq!(stdout(&out), known);
}

/// A certifier that rejects everything, as drat-trim says it.
fn rejecting_certifier(dir: &Path) -> PathBuf {
    write_script(
        dir,
        "reject.sh",
        "#!/bin/sh\necho 's NOT VERIFIED'\nexit 1\n",
    )
}

#[test]
fn a_certifier_past_its_time_limit_is_stopped_and_an_error() {
    let dir = temp_dir();
    std::fs::write(
        dir.path().join("in.txt"),
        format!("{}\n", clashing_puzzle().to_line().unwrap()),
    )
    .unwrap();
    let hanging = write_script(dir.path(), "hang.sh", "#!/bin/sh\nexec sleep 60\n");
    let quick = write_script(dir.path(), "quick.sh", "#!/bin/sh\necho 's VERIFIED'\n");
    let solve = |certifier: &Path, proofs: &str| {
        let certify = format!("{} {{cnf}} {{proof}}", certifier.display());
        let args = [
            "solve",
            "in.txt",
            "--proof-dir",
            proofs,
            "--certify",
            &certify,
            "--certify-timeout",
            "0.2",
        ];
        run_in(dir.path(), &args, b"")
    };
    let out = solve(&hanging, "hung");
    assert_exit(&out, 2);
    let err = common::stderr(&out);
    assert!(
        err.contains("--certify-timeout of 200ms, and was stopped"),
        "{err}"
    );
    // A checker within the limit verifies as before.
    let out = solve(&quick, "quick");
    assert_exit(&out, 1);
    assert_eq!(
        stdout(&out),
        "no solution (proof: quick/puzzle-1.drat, verified)\n"
    );
}

#[test]
fn cli_solve_proves_no_solution_and_unique_and_a_rejection_is_an_error() {
    let Some(drat) = drat_trim() else { return };
    let dir = temp_dir();
    let input = format!(
        "{}\n{}\n{}\n",
        clashing_puzzle().to_line().unwrap(),
        no_candidate_puzzle().to_line().unwrap(),
        read_fixture("expert-20.txt")[0].to_line().unwrap()
    );
    std::fs::write(dir.path().join("in.txt"), &input).unwrap();
    let certify = format!("{} {{cnf}} {{proof}}", drat.display());
    let mut backends = vec!["dpll", "varisat"];
    if BackendKind::Cadical.is_built() {
        backends.push("cadical");
    }
    for backend in backends {
        let out = run_in(
            dir.path(),
            &[
                "solve",
                "in.txt",
                "--unique",
                "--backend",
                backend,
                "--proof-dir",
                backend,
                "--certify",
                &certify,
                // Under a limit varisat writes its proof through the sink that can stop it.
                "--timeout",
                "60",
            ],
            b"",
        );
        assert_exit(&out, 1);
        let text = stdout(&out);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0],
            format!("no solution (proof: {backend}/puzzle-1.drat, verified)")
        );
        assert_eq!(
            lines[1],
            format!("no solution (proof: {backend}/puzzle-2.drat, verified)")
        );
        assert_eq!(
            lines[3],
            format!("unique (proof: {backend}/puzzle-3.drat, verified)")
        );
        let index = std::fs::read_to_string(dir.path().join(backend).join("index.csv")).unwrap();
        assert_eq!(
            index,
            format!(
                "puzzle,file,line,verdict,cnf,proof\n\
                 1,in.txt,1,no solution,{backend}/puzzle-1.cnf,{backend}/puzzle-1.drat\n\
                 2,in.txt,2,no solution,{backend}/puzzle-2.cnf,{backend}/puzzle-2.drat\n\
                 3,in.txt,3,unique,{backend}/puzzle-3.cnf,{backend}/puzzle-3.drat\n"
            )
        );
        // No partial proof is left behind.
        let names: Vec<String> = std::fs::read_dir(dir.path().join(backend))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names.len(), 7, "{names:?}");
    }
    let reject = rejecting_certifier(dir.path());
    let out = run_in(
        dir.path(),
        &[
            "count",
            "in.txt",
            "--proof-dir",
            "rejected",
            "--certify",
            &format!("{} {{cnf}} {{proof}}", reject.display()),
        ],
        b"",
    );
    assert_exit(&out, 2);
    let err = common::stderr(&out);
    assert!(
        err.contains("in.txt:1") && err.contains("rejected"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn cli_sat_writes_text_and_binary_proofs_and_refuses_where_it_cannot() {
    let Some(drat) = drat_trim() else { return };
    let dir = temp_dir();
    let cnf = dir.path().join("ph.cnf");
    write_formula(std::fs::File::create(&cnf).unwrap(), &pigeonhole(6, 5)).unwrap();
    let mut backends = vec!["dpll", "varisat"];
    if external_available("cadical") {
        backends.push("cadical");
    }
    for backend in backends {
        for binary in [false, true] {
            let proof = dir.path().join(format!("{backend}-{binary}.drat"));
            let mut args = vec!["sat", "ph.cnf", "--proof", proof.to_str().unwrap()];
            if backend == "cadical" {
                args.extend(["--backend", "external", "--solver-cmd", "cadical"]);
            } else {
                args.extend(["--backend", backend]);
            }
            if binary {
                args.push("--binary-proof");
            }
            let out = run_in(dir.path(), &args, b"");
            assert_exit(&out, 20);
            assert!(stdout(&out).contains("s UNSATISFIABLE"));
            let bytes = std::fs::read(&proof).unwrap();
            // Binary DRAT starts with the `a` of a lemma, text with a digit or `-`.
            assert_eq!(bytes[0] == b'a', binary, "{backend} binary={binary}");
            assert!(
                drat_verifies(&drat, &cnf, &proof),
                "{backend} binary={binary}"
            );
        }
    }
    for (backend, expected) in [("splr", "splr"), ("minisat", "MiniSat")] {
        if backend == "minisat" && !external_available("minisat") {
            continue;
        }
        let out = run_in(
            dir.path(),
            &["sat", "ph.cnf", "--backend", backend, "--proof", "no.drat"],
            b"",
        );
        assert_exit(&out, 2);
        let err = common::stderr(&out);
        assert!(
            err.contains("cannot write DRAT proofs") && err.contains(expected),
            "{err}"
        );
        assert!(!dir.path().join("no.drat").exists());
    }
}

#[test]
fn cli_sat_compresses_a_proof_named_gz_bz2_or_xz() {
    use std::io::Read;
    let dir = temp_dir();
    let cnf = dir.path().join("ph.cnf");
    write_formula(std::fs::File::create(&cnf).unwrap(), &pigeonhole(5, 4)).unwrap();
    let prove = |name: &str, binary: bool| {
        let mut args = vec!["sat", "ph.cnf", "--threads", "1", "--proof", name];
        if binary {
            args.push("--binary-proof");
        }
        let out = run_in(dir.path(), &args, b"");
        assert_exit(&out, 20);
        std::fs::read(dir.path().join(name)).unwrap()
    };
    for binary in [false, true] {
        let plain = prove("plain.drat", binary);
        assert!(!plain.is_empty());
        for ext in ["gz", "bz2", "xz"] {
            let name = format!("p.drat.{ext}");
            let packed = prove(&name, binary);
            let (kind, mut reader) = sudosat::compression::decompressed(&packed[..]).unwrap();
            let expected = sudosat::compression::Compression::from_extension(ext);
            assert_eq!(kind, expected, "{name}");
            let mut unpacked = Vec::new();
            reader.read_to_end(&mut unpacked).unwrap();
            assert_eq!(unpacked, plain, "{name} binary={binary}");
        }
        if let Some(drat) = drat_trim() {
            let unpacked = dir.path().join("unpacked.drat");
            std::fs::write(&unpacked, &plain).unwrap();
            assert!(drat_verifies(&drat, &cnf, &unpacked), "binary={binary}");
        }
    }
    // No UNSAT answer, no proof file, compressed or not.
    let sat = dir.path().join("sat.cnf");
    std::fs::write(&sat, "p cnf 2 1\n1 2 0\n").unwrap();
    let out = run_in(
        dir.path(),
        &["sat", "sat.cnf", "--proof", "none.drat.gz"],
        b"",
    );
    assert_exit(&out, 10);
    assert!(!dir.path().join("none.drat.gz").exists());
}

#[test]
fn proof_dir_files_can_be_written_compressed_after_the_check() {
    let dir = temp_dir();
    let puzzles = path("expert-20.txt");
    let mut args = vec![
        "count",
        &puzzles,
        "--proof-dir",
        "proofs",
        "--proof-compress",
        "xz",
    ];
    let drat = drat_trim();
    let certify = drat
        .as_ref()
        .map(|d| format!("{} {{cnf}} {{proof}}", d.display()));
    if let Some(certify) = &certify {
        args.extend(["--certify", certify]);
    }
    let out = run_in(dir.path(), &args, b"");
    assert_exit(&out, 0);
    let suffix = if drat.is_some() { ", verified)" } else { ")" };
    let text = stdout(&out);
    assert_eq!(text.lines().count(), 20, "{text}");
    for (i, line) in text.lines().enumerate() {
        let k = i + 1;
        let verdict = format!(": unique (proof: proofs/puzzle-{k}.drat.xz{suffix}");
        assert!(
            line.starts_with(&format!("{puzzles}:")) && line.ends_with(&verdict),
            "{line}"
        );
    }
    let index = std::fs::read_to_string(dir.path().join("proofs/index.csv")).unwrap();
    assert!(
        index
            .lines()
            .nth(1)
            .unwrap()
            .ends_with(",unique,proofs/puzzle-1.cnf.xz,proofs/puzzle-1.drat.xz"),
        "{index}"
    );
    // Only packed files (and the index) are left; unpacked, they are the plain pair.
    let mut names: Vec<String> = std::fs::read_dir(dir.path().join("proofs"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names.len(), 41, "{names:?}");
    assert!(
        names.iter().all(|n| n == "index.csv" || n.ends_with(".xz")),
        "{names:?}"
    );
    let unpack = |name: &str| {
        let mut text = String::new();
        let mut input = sudosat::compression::open(&dir.path().join("proofs").join(name)).unwrap();
        std::io::Read::read_to_string(&mut input, &mut text).unwrap();
        let plain = dir.path().join(name.trim_end_matches(".xz"));
        std::fs::write(&plain, &text).unwrap();
        (plain, text)
    };
    let (cnf, text) = unpack("puzzle-7.cnf.xz");
    assert!(
        text.contains("c proof: puzzle-7.drat.xz (DRAT"),
        "the CNF names its proof"
    );
    let (proof, _) = unpack("puzzle-7.drat.xz");
    if let Some(drat) = &drat {
        assert!(drat_verifies(drat, &cnf, &proof));
    }
}

/// The lines of a binary DRAT proof in the text form (`a` lemmas as clauses, `d` lines):
/// each literal is a variable-length number, 2·variable plus one for a negative literal.
fn binary_drat_as_text(bytes: &[u8]) -> Vec<String> {
    let mut lines = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let mut line = match bytes[i] {
            b'a' => String::new(),
            b'd' => "d ".to_string(),
            other => panic!("byte {i}: {other} starts no binary DRAT line"),
        };
        i += 1;
        loop {
            let (mut code, mut shift) = (0u64, 0);
            loop {
                let byte = bytes[i];
                i += 1;
                code |= u64::from(byte & 0x7f) << shift;
                shift += 7;
                if byte < 0x80 {
                    break;
                }
            }
            if code == 0 {
                break;
            }
            let var = (code >> 1) as i64;
            line.push_str(&format!("{} ", if code & 1 == 1 { -var } else { var }));
        }
        line.push('0');
        lines.push(line);
    }
    lines
}

#[test]
fn proof_dir_writes_binary_drat_with_the_text_proofs_lemmas() {
    let dir = temp_dir();
    let (nine, twenty_five) = (path("expert-20.txt"), path("sudoku-25-1.txt"));
    let drat = drat_trim();
    let certify = drat
        .as_ref()
        .map(|d| format!("{} {{cnf}} {{proof}}", d.display()));
    for (proofs, binary) in [("text", false), ("binary", true)] {
        let mut args = vec!["count", &nine, &twenty_five, "--proof-dir", proofs];
        if binary {
            args.push("--binary-proof");
        }
        if let Some(certify) = &certify {
            args.extend(["--certify", certify]);
        }
        let out = run_in(dir.path(), &args, b"");
        assert_exit(&out, 0);
        if drat.is_some() {
            check_unique_lines(&stdout(&out), proofs, 21, 1);
        }
        let cnf = std::fs::read_to_string(dir.path().join(proofs).join("puzzle-21.cnf")).unwrap();
        let kind = if binary { "binary DRAT" } else { "DRAT" };
        assert!(
            cnf.contains(&format!(
                "c proof: puzzle-21.drat ({kind}, written by cdcl;"
            )),
            "{cnf}"
        );
    }
    // The search is the same, so each binary proof holds the text proof's lines, in a
    // smaller file.
    let (mut text_bytes, mut binary_bytes) = (0, 0);
    for k in 1..=21 {
        let proof = |proofs: &str| dir.path().join(proofs).join(format!("puzzle-{k}.drat"));
        let text = std::fs::read_to_string(proof("text")).unwrap();
        let binary = std::fs::read(proof("binary")).unwrap();
        let text_lines: Vec<&str> = text.lines().collect();
        assert!(
            text_lines.len() > 10,
            "puzzle {k}: {} lines",
            text_lines.len()
        );
        assert_eq!(binary_drat_as_text(&binary), text_lines, "puzzle {k}");
        text_bytes += text.len();
        binary_bytes += binary.len();
    }
    assert!(
        binary_bytes * 3 < text_bytes * 2,
        "{binary_bytes} against {text_bytes}"
    );
}

#[test]
fn cli_sat_proves_cube_and_conquer_with_and_without_a_cover() {
    let Some(drat) = drat_trim() else { return };
    let dir = temp_dir();
    let cnf = dir.path().join("ph.cnf");
    write_formula(std::fs::File::create(&cnf).unwrap(), &pigeonhole(6, 5)).unwrap();
    // Four cubes that cover every assignment of variables 1 and 2, and two that leave
    // `-1 -2` out (then the solve outside them joins the proof), and an `p inccnf` file.
    let cases = [
        (
            "cover.txt",
            "a 1 2 0\na 1 -2 0\na -1 2 0\na -1 -2 0\n",
            "they cover every assignment",
        ),
        (
            "short.txt",
            "a 1 0\na -1 2 0\n",
            "they leave assignments out, and the formula is unsatisfiable there too",
        ),
    ];
    for (name, cubes, said) in cases {
        std::fs::write(dir.path().join(name), cubes).unwrap();
        // One worker and two, each writing its part of the proof.
        for (binary, threads) in [(false, "1"), (false, "2"), (true, "2")] {
            let proof = dir.path().join(format!("{name}-{binary}-{threads}.drat"));
            let mut args = vec![
                "sat",
                "ph.cnf",
                "--cubes",
                name,
                "--threads",
                threads,
                "--proof",
                proof.to_str().unwrap(),
            ];
            if binary {
                args.push("--binary-proof");
            }
            let out = run_in(dir.path(), &args, b"");
            assert_exit(&out, 20);
            assert!(stdout(&out).contains(said), "{}", stdout(&out));
            let bytes = std::fs::read(&proof).unwrap();
            assert_eq!(bytes[0] == b'a', binary, "{name} binary={binary}");
            assert!(drat_verifies(&drat, &cnf, &proof), "{name} binary={binary}");
        }
    }
    // The same cubes in a `p inccnf` file.
    let text = std::fs::read_to_string(&cnf).unwrap();
    let clauses: String = text
        .lines()
        .filter(|l| !l.starts_with('p') && !l.starts_with('c'))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(
        dir.path().join("ph.icnf"),
        format!("p inccnf\n{clauses}a 3 0\na -3 0\n"),
    )
    .unwrap();
    let out = run_in(dir.path(), &["sat", "ph.icnf", "--proof", "icnf.drat"], b"");
    assert_exit(&out, 20);
    assert!(drat_verifies(&drat, &cnf, &dir.path().join("icnf.drat")));
    // Only cdcl joins such proofs; a proof with --assume is refused as without cubes.
    for (args, message) in [
        (
            &[
                "sat",
                "ph.cnf",
                "--cubes",
                "cover.txt",
                "--backend",
                "dpll",
                "--proof",
                "x.drat",
            ][..],
            "only --backend cdcl writes",
        ),
        (
            &[
                "sat",
                "ph.cnf",
                "--cubes",
                "cover.txt",
                "--assume",
                "4",
                "--proof",
                "x.drat",
            ],
            "cannot be used with",
        ),
    ] {
        let out = run_in(dir.path(), args, b"");
        assert_exit(&out, 2);
        assert!(
            common::stderr(&out).contains(message),
            "{}",
            common::stderr(&out)
        );
        assert!(!dir.path().join("x.drat").exists());
    }
}
