//! The page's calls as plain Rust over the library (tested natively at the bottom); `lib.rs`
//! exports them to JavaScript.

use std::time::Duration;

use serde_json::{json, Value};
use sudosat::dimacs::{read_model_auto, SolverAnswer};
use sudosat::encode::{check_memory_budget, write_cnf, AmoFamily, Encoding, SudokuEncoding};
use sudosat::formula::ModelCheck;
use sudosat::grid::{
    check_solution, detect_format, read_puzzles, write_puzzles, Format, Grid, Source,
};
use sudosat::run::{watch_progress, Counters, Instant};
use sudosat::solve::human::solve_logged_until;
use sudosat::solve::sat::DEFAULT_ENCODING;
use sudosat::solve::{SolveOutcome, SolverSpec};

/// Bytes a formula may fill in the page: a tab has a few GB at most (wasm32 addresses
/// 4 GiB), and the browser needs its share.
pub const MEMORY_BUDGET: u64 = 1 << 30;

/// How often a solve's progress is shown.
const PROGRESS_EVERY: Duration = Duration::from_millis(100);

/// The solvers the page offers, by the names it shows, and the spec each stands for.
pub const SOLVERS: [&str; 4] = ["cdcl", "dpll", "dlx", "human"];

fn error(message: impl std::fmt::Display) -> Value {
    json!({ "error": message.to_string() })
}

/// The one puzzle of `text`.
fn one_puzzle(text: &str) -> Result<Grid, Value> {
    let mut puzzles = read_puzzles(text.as_bytes(), &Source::Text, None).map_err(error)?;
    match puzzles.len() {
        1 => Ok(puzzles.remove(0)),
        n => Err(error(format!("expected one puzzle, found {n}"))),
    }
}

/// The puzzle in the `grid` format: every size, one row a line.
fn grid_text(grid: &Grid) -> String {
    let mut out = Vec::new();
    write_puzzles(&mut out, std::slice::from_ref(grid), Format::Grid).expect("writing to memory");
    String::from_utf8(out).expect("the grid format is ASCII")
}

/// See [`crate::parse`].
pub fn parse(text: &str) -> Value {
    match read_puzzles(text.as_bytes(), &Source::Text, None) {
        Ok(puzzles) if puzzles.is_empty() => json!({ "error": "no puzzle in the text" }),
        Ok(puzzles) => json!({
            "format": detect_format(text).map(|f| f.to_string()),
            "puzzles": puzzles.iter().map(|grid| json!({
                "side": grid.side(),
                "box": grid.box_size(),
                "givens": grid.num_givens(),
                "values": grid.values(),
                "line": grid.to_line(),
                "text": grid_text(grid),
            })).collect::<Vec<_>>(),
        }),
        Err(e) => json!({
            "error": e.to_string(),
            "message": e.message,
            "line": e.line,
            "column": e.column,
        }),
    }
}

/// See [`crate::sizes`].
pub fn sizes(text: &str) -> Value {
    let grid = match one_puzzle(text) {
        Ok(grid) => grid,
        Err(e) => return e,
    };
    let encodings = sudosat::compare::cross_amo(&SudokuEncoding::ALL, &AmoFamily::ALL);
    // Every unreduced formula bounds its reduced one: refuse before counting.
    for encoding in &encodings {
        if let Err(e) = check_memory_budget(*encoding, &grid, MEMORY_BUDGET) {
            return error(e);
        }
    }
    let rows: Vec<Value> = encodings
        .iter()
        .zip(sudosat::encode::sizes_of(&grid, &encodings))
        .map(|(encoding, size)| {
            json!({
                "encoding": encoding.name(),
                "vars": size.vars,
                "clauses": size.clauses,
                "literals": size.literals,
            })
        })
        .collect();
    json!({ "rows": rows })
}

fn encoding_named(name: &str) -> Result<SudokuEncoding, Value> {
    name.parse::<SudokuEncoding>().map_err(error)
}

/// See [`crate::encode`].
pub fn encode(text: &str, encoding: &str) -> Value {
    let (grid, encoding) = match (one_puzzle(text), encoding_named(encoding)) {
        (Ok(grid), Ok(encoding)) => (grid, encoding),
        (Err(e), _) | (_, Err(e)) => return e,
    };
    if let Err(e) = check_memory_budget(encoding, &grid, MEMORY_BUDGET) {
        return error(e);
    }
    let mut dimacs = Vec::new();
    match write_cnf(&mut dimacs, &encoding, &grid) {
        Ok(size) => json!({
            "dimacs": String::from_utf8_lossy(&dimacs),
            "vars": size.vars,
            "clauses": size.clauses,
        }),
        Err(e) => error(e),
    }
}

/// See [`crate::decode`]: as `sudosat decode --puzzle`, the model checked against every
/// clause and the grid against the rules and the givens.
pub fn decode(text: &str, encoding: &str, output: &str) -> Value {
    let (grid, encoding) = match (one_puzzle(text), encoding_named(encoding)) {
        (Ok(grid), Ok(encoding)) => (grid, encoding),
        (Err(e), _) | (_, Err(e)) => return e,
    };
    let map = encoding.var_map(&grid);
    let model = match read_model_auto(output.as_bytes(), "<output>", map.num_vars()) {
        Ok(SolverAnswer::Sat(model)) => model,
        Ok(SolverAnswer::Unsat) => return json!({ "answer": "unsat" }),
        Ok(SolverAnswer::Unknown) => return json!({ "answer": "unknown" }),
        Err(e) => return error(e),
    };
    if model.len() > map.num_vars() {
        return error(format!(
            "the model assigns {} variables but the {} encoding of this puzzle has {}: a \
             model of another formula",
            model.len(),
            encoding.name(),
            map.num_vars()
        ));
    }
    let decoded = match map.decode(&model) {
        Ok(decoded) => decoded,
        Err(e) => return error(format!("not a solution of the puzzle: {e}")),
    };
    let mut check = ModelCheck::new(&model);
    encoding.encode(&grid, &mut check);
    if let Some((k, _)) = check.falsified {
        return error(format!(
            "a wrong model: it falsifies clause {k} of {}",
            check.clauses
        ));
    }
    json!({
        "answer": "sat",
        "values": decoded.values(),
        "valid": check_solution(&grid, &decoded).is_valid(),
    })
}

/// The spec of a solver the page names.
fn spec_of(solver: &str) -> Result<SolverSpec, Value> {
    let text = match solver {
        "cdcl" | "dpll" => format!("sat:{}:{solver}", DEFAULT_ENCODING.name()),
        "dlx" | "human" => solver.to_string(),
        other => {
            return Err(error(format!(
                "unknown solver `{other}`: expected one of {}",
                SOLVERS.join(", ")
            )))
        }
    };
    text.parse().map_err(error)
}

fn time_limit(timeout: f64) -> Option<Duration> {
    (timeout.is_finite() && timeout > 0.0).then(|| Duration::from_secs_f64(timeout.min(1e6)))
}

fn counters_json(counters: &Counters) -> Value {
    Value::Object(
        counters
            .0
            .iter()
            .map(|&(name, value)| (name.to_string(), json!(value)))
            .collect(),
    )
}

/// The puzzle and the solver, with the memory check the command line makes first.
fn prepared(text: &str, solver: &str) -> Result<(Grid, SolverSpec), Value> {
    let grid = one_puzzle(text)?;
    let spec = spec_of(solver)?;
    if let Some(encoding) = spec.encoding() {
        check_memory_budget(encoding, &grid, MEMORY_BUDGET).map_err(error)?;
    }
    Ok((grid, spec))
}

/// See [`crate::solve`]; `show` gets each progress line.
pub fn solve(
    text: &str,
    solver: &str,
    timeout: f64,
    mut show: impl FnMut(&str) + 'static,
) -> Value {
    let (grid, spec) = match prepared(text, solver) {
        Ok(prepared) => prepared,
        Err(e) => return e,
    };
    let start = Instant::now();
    let mut shown = start;
    let watcher = move |counters: &Counters| {
        if shown.elapsed() >= PROGRESS_EVERY {
            shown = Instant::now();
            let mut line = counters_json(counters);
            line["millis"] = json!(start.elapsed().as_secs_f64() * 1e3);
            show(&line.to_string());
        }
    };
    let mut built = spec.build(time_limit(timeout));
    let report = watch_progress(watcher, || built.solve(&grid));
    let millis = start.elapsed().as_secs_f64() * 1e3;
    match report {
        Ok(report) => {
            let counters = built
                .sat_stats()
                .map_or_else(|| report.counters.clone(), |s| s.backend.clone());
            let mut answer = json!({ "counters": counters_json(&counters), "millis": millis });
            match report.outcome {
                SolveOutcome::Solved(solution) => {
                    answer["outcome"] = json!("solved");
                    answer["valid"] = json!(check_solution(&grid, &solution).is_valid());
                    answer["values"] = json!(solution.values());
                }
                SolveOutcome::NoSolution => answer["outcome"] = json!("no-solution"),
                SolveOutcome::Stopped(why) => {
                    answer["outcome"] = json!("stopped");
                    answer["message"] = json!(why);
                }
            }
            answer
        }
        Err(e) if e.is_timeout() => {
            json!({ "outcome": "unknown", "message": e.to_string(), "millis": millis })
        }
        Err(e) => error(e),
    }
}

/// See [`crate::count`].
pub fn count(text: &str, solver: &str, limit: u64, timeout: f64) -> Value {
    let (grid, spec) = match prepared(text, solver) {
        Ok(prepared) => prepared,
        Err(e) => return e,
    };
    let start = Instant::now();
    let counted = spec
        .build(time_limit(timeout))
        .count_solutions(&grid, limit);
    let millis = start.elapsed().as_secs_f64() * 1e3;
    match counted {
        Ok(Some(count)) => json!({ "count": count, "limit": limit, "millis": millis }),
        Ok(None) => error(format!("solver `{solver}` cannot count solutions")),
        Err(e) if e.is_timeout() => json!({ "count": null, "message": e.to_string() }),
        Err(e) => error(e),
    }
}

/// The most steps sent to the page: a large puzzle's guesses can run to millions.
const MAX_STEPS: usize = 5_000;

/// See [`crate::steps`].
pub fn steps(text: &str) -> Value {
    let grid = match one_puzzle(text) {
        Ok(grid) => grid,
        Err(e) => return e,
    };
    let deadline = sudosat::run::Deadline::after(Some(Duration::from_secs(20)));
    let run = match solve_logged_until(&grid, deadline) {
        Ok(run) => run,
        Err(e) => return error(e),
    };
    let geo = grid.geometry();
    let boards = run.log.replay(&grid);
    let steps: Vec<Value> = run
        .log
        .steps
        .iter()
        .zip(&boards)
        .take(MAX_STEPS)
        .map(|(step, before)| {
            let mut shown = step.to_json(geo, 3);
            let values: Vec<usize> = (0..grid.side() * grid.side())
                .map(|i| {
                    before
                        .value(sudosat::grid::Cell(i as u32))
                        .map_or(0, |d| d.get())
                })
                .collect();
            shown["before"] = json!(values);
            shown
        })
        .collect();
    json!({
        "steps": steps,
        "total": run.log.steps.len(),
        "outcome": match run.outcome {
            SolveOutcome::Solved(_) => "solved",
            SolveOutcome::NoSolution => "no-solution",
            SolveOutcome::Stopped(_) => "stopped",
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const PUZZLE: &str =
        "800000000003600000070090200050007000000045700000100030001000068008500010090000400";

    #[test]
    fn a_bad_puzzle_is_an_error_with_its_line_and_column() {
        let answer = parse("1.3.\n..1x\n");
        assert!(
            answer["error"].as_str().unwrap().contains("<text>:2"),
            "{answer}"
        );
        assert_eq!(answer["line"], 2);
    }

    #[test]
    fn every_solver_solves_the_puzzle_and_the_answer_is_checked() {
        for solver in SOLVERS {
            let answer = solve(PUZZLE, solver, 0.0, |_| {});
            assert_eq!(answer["outcome"], "solved", "{solver}: {answer}");
            assert_eq!(answer["valid"], true, "{solver}");
        }
        let answer = solve(PUZZLE, "minisat", 0.0, |_| {});
        assert!(
            answer["error"].as_str().unwrap().contains("cdcl, dpll"),
            "{answer}"
        );
    }

    #[test]
    fn the_dimacs_file_is_the_one_encode_writes_and_decodes_back() {
        let grid: Grid = PUZZLE.parse().unwrap();
        let encoding: SudokuEncoding = "minimal+reduced".parse().unwrap();
        let mut expected = Vec::new();
        write_cnf(&mut expected, &encoding, &grid).unwrap();
        let answer = encode(PUZZLE, "minimal+reduced");
        assert_eq!(answer["dimacs"].as_str().unwrap().as_bytes(), expected);

        // A model from the built-in solver, printed as a competition solver prints one.
        let (cnf, _) = encoding.encode_to_cnf(&grid);
        let mut solver = sudosat::backend::Cdcl::new();
        for clause in cnf.clauses() {
            sudosat::formula::ClauseSink::add_clause(&mut solver, clause);
        }
        let model = match sudosat::backend::SatBackend::solve(&mut solver).unwrap() {
            sudosat::backend::SatOutcome::Sat(model) => model,
            other => panic!("{other:?}"),
        };
        let lits: Vec<String> = model.lits().map(|l| l.to_dimacs().to_string()).collect();
        let output = format!("s SATISFIABLE\nv {} 0\n", lits.join(" "));
        let decoded = decode(PUZZLE, "minimal+reduced", &output);
        assert_eq!(decoded["valid"], true, "{decoded}");
        let solved = solve(PUZZLE, "cdcl", 0.0, |_| {});
        assert_eq!(decoded["values"], solved["values"]);
        // The same model read against another encoding's formula is refused.
        assert!(decode(PUZZLE, "extended", &output)["error"].is_string());
    }

    #[test]
    fn the_count_tells_a_unique_puzzle_from_one_with_two_solutions() {
        assert_eq!(count(PUZZLE, "cdcl", 2, 0.0)["count"], 1);
        let open = format!("0{}", &PUZZLE[1..]);
        assert_eq!(count(&open, "dlx", 2, 0.0)["count"], 2);
    }

    #[test]
    fn the_human_steps_start_from_the_puzzle() {
        let answer = steps(PUZZLE);
        assert_eq!(answer["outcome"], "solved");
        let first = &answer["steps"][0];
        let grid: Grid = PUZZLE.parse().unwrap();
        assert_eq!(first["before"], json!(grid.values()));
        assert!(first["text"].as_str().is_some());
    }

    #[test]
    fn sizes_list_every_encoding_and_family() {
        let rows = &sizes(PUZZLE)["rows"];
        let n = SudokuEncoding::ALL.len();
        assert!(rows.as_array().unwrap().len() >= n, "{rows}");
        assert_eq!(rows[0]["encoding"], SudokuEncoding::ALL[0].name());
    }
}
