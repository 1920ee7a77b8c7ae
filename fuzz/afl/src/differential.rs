//! The differential check: cdcl, dpll and varisat on a small formula or a 4×4 partial grid
//! decoded from arbitrary bytes must agree with each other and with enumeration, and every
//! model and solution is checked. Shared by the AFL target and `tests/fuzz_replay.rs`
//! (included there by path), so a saved input replays through the very same checks.
//!
//! Layout: the first byte picks the case (bit 0: formula or grid), the load mode (bit 1),
//! cdcl's seed (bits 2–3) and the lookahead (bits 4–5).
//! - Formula: the second byte gives 1–12 variables; then each clause is a length byte
//!   (0–4 literals) and one byte per literal (bit 7: negated; the rest: the variable).
//!   At most 40 clauses.
//! - Grid: the second byte picks the encoding (of every base, reduction and AMO family);
//!   the next 16 bytes are the cells, row-major (1–4 a given, anything else blank).

use sudosat::backend::{
    check_model, BackendKind, BackendSpec, LoadMode, Lookahead, SatBackend, SatOutcome,
};
use sudosat::encode::SudokuEncoding;
use sudosat::grid::{check_solution, Grid};
use sudosat::solve::sat::SatSolver;
use sudosat::{ClauseSink, Cnf, Lit, Model, Var};

/// The backends compared.
pub const BACKENDS: [BackendKind; 3] = [BackendKind::Cdcl, BackendKind::Dpll, BackendKind::Varisat];

/// Most variables of a formula: enumeration stays at 4096 assignments.
pub const MAX_VARS: usize = 12;
/// Most clauses of a formula.
pub const MAX_CLAUSES: usize = 40;
/// Models (or solutions) counted before stopping: enough to exercise clauses added after
/// a solve without the count dominating the run.
pub const COUNT_LIMIT: usize = 3;

/// What the bytes decode to, with the backends' settings.
#[derive(Debug)]
pub enum Case {
    /// A formula and how its backends are set up.
    Formula(Cnf, Setup),
    /// A 4×4 puzzle, the encoding and the backends' setup.
    Grid(Grid, SudokuEncoding, Setup),
}

/// The settings the first byte picks.
#[derive(Clone, Copy, Debug)]
pub struct Setup {
    /// How the grid is loaded (ignored for formulas).
    pub load: LoadMode,
    /// cdcl's seed.
    pub seed: u64,
    /// The DPLL's lookahead and cdcl's probing.
    pub lookahead: Lookahead,
}

impl Setup {
    fn spec(self, kind: BackendKind) -> BackendSpec {
        BackendSpec {
            seed: self.seed,
            ..BackendSpec::new(kind)
                .with_lookahead(self.lookahead)
                .with_load(self.load)
        }
    }
}

/// Decodes `data`; `None` when it is too short to name a case.
pub fn decode(data: &[u8]) -> Option<Case> {
    let (&head, rest) = data.split_first()?;
    let setup = Setup {
        load: if head & 2 == 0 {
            LoadMode::Reencode
        } else {
            LoadMode::Assumptions
        },
        seed: u64::from((head >> 2) & 3),
        lookahead: Lookahead::ALL[usize::from(head >> 4) % Lookahead::ALL.len()],
    };
    let (&second, rest) = rest.split_first()?;
    if head & 1 == 0 {
        let num_vars = 1 + usize::from(second) % MAX_VARS;
        let mut cnf = Cnf::with_vars(num_vars);
        let mut bytes = rest.iter().copied();
        let mut clause = Vec::new();
        while cnf.num_clauses() < MAX_CLAUSES {
            let Some(len) = bytes.next() else { break };
            clause.clear();
            clause.extend(bytes.by_ref().take(usize::from(len) % 5).map(|b| {
                let var = Var::from_index(usize::from(b & 0x7f) % num_vars);
                if b & 0x80 == 0 {
                    var.positive()
                } else {
                    var.negative()
                }
            }));
            cnf.add_clause(&clause);
        }
        Some(Case::Formula(cnf, setup))
    } else {
        let families = SudokuEncoding::all_families();
        let encoding = families[usize::from(second) % families.len()];
        let values: Vec<u16> = (0..16)
            .map(|i| match rest.get(i).map(|b| b % 8) {
                Some(d @ 1..=4) => u16::from(d),
                _ => 0,
            })
            .collect();
        let grid = Grid::from_values(values).expect("16 values of 0–4 make a 4×4 grid");
        Some(Case::Grid(grid, encoding, setup))
    }
}

/// Runs the case `data` decodes to; panics on any disagreement or wrong answer.
pub fn check(data: &[u8]) {
    match decode(data) {
        None => {}
        Some(Case::Formula(cnf, setup)) => check_formula(&cnf, setup),
        Some(Case::Grid(grid, encoding, setup)) => check_grid(&grid, encoding, setup),
    }
}

/// The models of `cnf`, by enumeration, up to [`COUNT_LIMIT`].
fn enumerated_models(cnf: &Cnf) -> usize {
    let n = cnf.num_vars();
    (0u32..1 << n)
        .filter(|bits| {
            let model = Model::from_values((0..n).map(|i| bits >> i & 1 == 1).collect());
            cnf.first_falsified(&model).is_none()
        })
        .take(COUNT_LIMIT)
        .count()
}

fn check_formula(cnf: &Cnf, setup: Setup) {
    let expected = enumerated_models(cnf);
    for kind in BACKENDS {
        let spec = setup.spec(kind);
        let mut backend: Box<dyn SatBackend> = spec.create().expect("an embedded backend");
        let mut formula = cnf.clone();
        let mut given = cnf.clone();
        backend.add_formula(&mut formula);
        let mut found = 0;
        while found < COUNT_LIMIT {
            let outcome = backend
                .solve()
                .unwrap_or_else(|e| panic!("{kind}: {e} on {cnf:?}"));
            let model = match outcome {
                SatOutcome::Unsat => break,
                SatOutcome::Sat(model) => model,
            };
            // Against every clause given so far, blocking ones included.
            let model = match check_model(kind.name(), &given, model) {
                Ok(SatOutcome::Sat(model)) => model,
                other => panic!("{kind}: wrong model {other:?} on {cnf:?}"),
            };
            found += 1;
            let blocking: Vec<Lit> = (0..cnf.num_vars())
                .map(|i| {
                    let var = Var::from_index(i);
                    if model.value(var) {
                        var.negative()
                    } else {
                        var.positive()
                    }
                })
                .collect();
            backend.add_clause(&blocking);
            given.add_clause(&blocking);
        }
        assert_eq!(
            found, expected,
            "{kind} counted {found} models, enumeration {expected}, on {cnf:?} ({setup:?})"
        );
    }
}

/// The solutions of `puzzle`, by enumeration of every full 4×4 grid, up to
/// [`COUNT_LIMIT`].
fn enumerated_solutions(puzzle: &Grid) -> usize {
    let mut cells = [0u16; 16];
    let mut count = 0;
    fill(puzzle, &mut cells, 0, &mut count);
    count
}

fn fill(puzzle: &Grid, cells: &mut [u16; 16], at: usize, count: &mut usize) {
    if *count >= COUNT_LIMIT {
        return;
    }
    if at == 16 {
        *count += 1;
        return;
    }
    let (row, col) = (at / 4, at % 4);
    let given = puzzle.values()[at];
    for digit in 1..=4u16 {
        if given != 0 && digit != given {
            continue;
        }
        let clash = (0..at).any(|other| {
            let (r, c) = (other / 4, other % 4);
            cells[other] == digit && (r == row || c == col || (r / 2, c / 2) == (row / 2, col / 2))
        });
        if !clash {
            cells[at] = digit;
            fill(puzzle, cells, at + 1, count);
        }
    }
    cells[at] = 0;
}

fn check_grid(puzzle: &Grid, encoding: SudokuEncoding, setup: Setup) {
    let expected = enumerated_solutions(puzzle);
    for kind in BACKENDS {
        let mut solver = SatSolver::new(encoding, setup.spec(kind));
        let solutions = solver
            .solutions(puzzle, COUNT_LIMIT as u64)
            .unwrap_or_else(|e| panic!("{kind}/{encoding:?}: {e} on {puzzle:?}"));
        for solution in &solutions {
            let report = check_solution(puzzle, solution);
            assert!(
                report.is_valid(),
                "{kind}/{encoding:?}: {solution:?} is no solution of {puzzle:?}: {report:?}"
            );
        }
        for (i, a) in solutions.iter().enumerate() {
            assert!(
                solutions[..i].iter().all(|b| b != a),
                "{kind}/{encoding:?}: {a:?} found twice for {puzzle:?}"
            );
        }
        assert_eq!(
            solutions.len(),
            expected,
            "{kind}/{encoding:?} found {} solutions, enumeration {expected}, of {puzzle:?} ({setup:?})",
            solutions.len()
        );
    }
}
