//! The playground page's calls into the library, compiled to WebAssembly: parse a puzzle,
//! the sizes of every encoding, the DIMACS file `sudosat encode` writes, a solver's output
//! decoded and checked, a solve with live progress, a count up to a limit, and the human
//! solver's steps. The page runs them in a Web Worker (`static/worker.js`), so that a long
//! solve never holds the page; Cancel ends that worker.
//!
//! Every call takes the puzzle as text (any format the command line reads, detected as it
//! detects it) and answers JSON: an object with `error` (the library's message, with the
//! line and column of a parse error) when the call cannot do what it was asked. The JSON
//! shapes are the page's own; `static/app.js` reads them.

#![warn(missing_docs)]

mod calls;

use wasm_bindgen::prelude::*;

/// The puzzles of `text`: `{"puzzles": [{"side", "box", "givens", "values", "line",
/// "text"}], "format"}`, or `{"error", "message", "line", "column"}`.
#[wasm_bindgen]
pub fn parse(text: &str) -> String {
    calls::parse(text).to_string()
}

/// Variables, clauses and literals of every encoding of the puzzle, each at-most-one family
/// crossed in, as `sudosat sizes --all` lists them: `{"rows": [{"encoding", "vars",
/// "clauses", "literals"}]}`.
#[wasm_bindgen]
pub fn sizes(puzzle: &str) -> String {
    calls::sizes(puzzle).to_string()
}

/// The DIMACS file `sudosat encode --encoding ENCODING` writes for the puzzle (`encoding`
/// as `encode` and compare's `--encodings` name one: `extended+reduced/sequential`):
/// `{"dimacs", "vars", "clauses"}`.
#[wasm_bindgen]
pub fn encode(puzzle: &str, encoding: &str) -> String {
    calls::encode(puzzle, encoding).to_string()
}

/// A SAT solver's output for the puzzle's formula under `encoding` (SAT-competition
/// `s`/`v` lines, or MiniSat's result file), decoded into a grid and checked against the
/// clauses, the rules and the givens: `{"answer": "sat"|"unsat"|"unknown", "values",
/// "valid"}`.
#[wasm_bindgen]
pub fn decode(puzzle: &str, encoding: &str, output: &str) -> String {
    calls::decode(puzzle, encoding, output).to_string()
}

/// Solves the puzzle with `solver` (`cdcl`, `dpll`, `dlx`, `human`) within `timeout`
/// seconds (0: none), calling `progress` with a JSON object of the solver's counters about
/// ten times a second: `{"outcome": "solved"|"no-solution"|"unknown"|"stopped", "values",
/// "valid", "counters", "millis"}`.
#[wasm_bindgen]
pub fn solve(puzzle: &str, solver: &str, timeout: f64, progress: js_sys::Function) -> String {
    calls::solve(puzzle, solver, timeout, move |line: &str| {
        // A progress line the page fails to show is no reason to stop solving.
        let _ = progress.call1(&JsValue::NULL, &JsValue::from_str(line));
    })
    .to_string()
}

/// Counts the puzzle's solutions with `solver` up to `limit` (2: "is it unique?"):
/// `{"count", "millis"}`.
#[wasm_bindgen]
pub fn count(puzzle: &str, solver: &str, limit: u32, timeout: f64) -> String {
    calls::count(puzzle, solver, u64::from(limit), timeout).to_string()
}

/// The human solver's steps: `{"steps": [{"text", "kind", "cells", "placed", "removed",
/// "before"}], "outcome"}`, `before` the grid's values before the step.
#[wasm_bindgen]
pub fn steps(puzzle: &str) -> String {
    calls::steps(puzzle).to_string()
}
