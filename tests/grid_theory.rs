//! The grid as a theory in cdcl (`--propagate grid`, `grid-only`, `grid-hall`,
//! `grid-only-hall`): its counts equal Dancing Links' on random partial grids, and every
//! reason it gives holds: one a proof checker accepts by unit propagation, or (a Hall set of
//! three or more, a pigeonhole argument) one a complete search refutes the negation of. Its counts against clauses alone and its proofs are tested with the
//! other native modes in tests/propagate.rs.

mod common;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use proptest::prelude::*;
use sudosat::backend::{
    Cdcl, ConnectPropagator, GridReasoning, GridTheoryFactory, Propagate, Propagator,
    PropagatorFactory, SatBackend, SatOutcome,
};
use sudosat::encode::{BaseEncoding, SudokuEncoding};
use sudosat::formula::{ClauseSink, Cnf, Lit, Var};
use sudosat::grid::{check_solution, read_puzzles_from_path, Cell, Digit, Grid};
use sudosat::solve::dlx;
use sudosat::solve::sat::sudoku_structure;
use sudosat::solve::Solver;
use sudosat_sat::propagation::{UnitPropagator, Value};

use common::{cdcl_propagating, fixture};

const THEORIES: [Propagate; 4] = [
    Propagate::Grid,
    Propagate::GridOnly,
    Propagate::GridHall,
    Propagate::GridOnlyHall,
];

/// Reasons that unit propagation does not refute, checked by a complete search, at most.
const SEARCHED_REASONS: u64 = 400;

/// A solved 9×9 grid, relabelled and with cells blanked and some givens changed: puzzles
/// with one, several or no solutions.
fn partial_grid() -> impl Strategy<Value = Grid> {
    let solved: Grid =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
            .parse()
            .unwrap();
    (
        Just(solved),
        Just(()).prop_perturb(|_, mut rng| {
            let mut digits: Vec<u8> = (1..=9).collect();
            for i in (1..9).rev() {
                let j = (rng.next_u32() as usize) % (i + 1);
                digits.swap(i, j);
            }
            digits
        }),
        proptest::collection::vec(0usize..81, 40..75),
        proptest::collection::vec((0usize..81, 1u8..=9), 0..2),
    )
        .prop_map(|(solved, digits, blanks, changes)| {
            let mut grid = solved;
            for c in 0..81 {
                let d = grid.get(Cell(c as u32)).unwrap();
                grid.set(Cell(c as u32), Some(Digit(digits[d.0 as usize - 1].into())));
            }
            for c in blanks {
                grid.set(Cell(c as u32), None);
            }
            for (c, d) in changes {
                grid.set(Cell(c as u32), Some(Digit(d.into())));
            }
            grid
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn the_theory_counts_as_dancing_links(puzzle in partial_grid()) {
        let expected = dlx::search(&puzzle, 3).unwrap().solutions;
        for propagate in THEORIES {
            let mut theory = cdcl_propagating(SudokuEncoding::new(BaseEncoding::Extended, true), propagate);
            prop_assert_eq!(theory.count_solutions(&puzzle, 3).unwrap(), Some(expected));
        }
    }
}

/// The theory's propagators with each reason they give checked: unit propagation on the
/// extended encoding refutes the reason's negation (a DRAT checker's RUP test), or, where
/// Hall sets run, a complete search on the encoding does (the first [`SEARCHED_REASONS`]).
struct CheckedReasons {
    theory: Arc<GridTheoryFactory>,
    encoding: Cnf,
    hall_sets: bool,
    checked: Arc<AtomicU64>,
    searched: Arc<AtomicU64>,
}

struct Checked {
    theory: Box<dyn Propagator>,
    encoding: UnitPropagator,
    formula: Cnf,
    hall_sets: bool,
    root: usize,
    checked: Arc<AtomicU64>,
    searched: Arc<AtomicU64>,
}

impl Checked {
    /// Whether `clause` holds in every model of the encoding: its negation is unsatisfiable.
    fn refuted_by_search(&self, clause: &[Lit]) -> bool {
        let mut formula = self.formula.clone();
        for &lit in clause {
            formula.add_clause(&[!lit]);
        }
        let mut solver = Cdcl::new();
        solver.add_formula(&mut formula);
        matches!(solver.solve().unwrap(), SatOutcome::Unsat)
    }
}

impl PropagatorFactory for CheckedReasons {
    fn create(&self, num_vars: usize, proof_safe: bool) -> Option<Box<dyn Propagator>> {
        let mut encoding = UnitPropagator::new();
        assert!(encoding.load(&self.encoding).unwrap() && encoding.propagate());
        Some(Box::new(Checked {
            theory: self.theory.create(num_vars, proof_safe)?,
            root: encoding.trail().len(),
            encoding,
            formula: self.encoding.clone(),
            hall_sets: self.hall_sets,
            checked: self.checked.clone(),
            searched: self.searched.clone(),
        }))
    }
}

impl Propagator for Checked {
    fn observed_vars(&self) -> Vec<Var> {
        self.theory.observed_vars()
    }
    fn notify_assignment(&mut self, lits: &[Lit]) {
        self.theory.notify_assignment(lits)
    }
    fn notify_new_decision_level(&mut self) {
        self.theory.notify_new_decision_level()
    }
    fn notify_backtrack(&mut self, level: usize) {
        self.theory.notify_backtrack(level)
    }
    fn propagate(&mut self) -> Option<Lit> {
        self.theory.propagate()
    }
    fn add_clause(&mut self, out: &mut Vec<Lit>) -> bool {
        self.theory.add_clause(out)
    }
    fn reason_clause(&mut self, lit: Lit, out: &mut Vec<Lit>) {
        self.theory.reason_clause(lit, out);
        assert_eq!(out.first(), Some(&lit));
        let up = &mut self.encoding;
        up.undo_to(self.root);
        let mut refuted = false;
        for &l in out.iter() {
            match up.value(l) {
                Value::True => refuted = true,
                Value::False => {}
                Value::Unset => up.assign(!l),
            }
        }
        if !refuted && up.propagate() {
            assert!(self.hall_sets, "reason {out:?} is no RUP clause");
            if self.searched.fetch_add(1, Ordering::Relaxed) < SEARCHED_REASONS {
                assert!(self.refuted_by_search(out), "reason {out:?} does not hold");
            }
        }
        self.checked.fetch_add(1, Ordering::Relaxed);
    }
}

#[test]
fn every_reason_is_refuted_by_unit_propagation_on_the_encoding() {
    let mut puzzles = Vec::new();
    // The thesis grids bring Hall sets of three or more cells to the reasoning without
    // complete candidates; the expert set alone brings none there.
    for file in [
        "expert-20.txt",
        "thesis-9x9.txt",
        "sudoku-16-1.txt",
        "thesis-4x4.txt",
    ] {
        puzzles.extend(read_puzzles_from_path(&fixture(file), None).unwrap());
    }
    let encoding = SudokuEncoding::new(BaseEncoding::Extended, true);
    for (complete, hall_sets) in [(true, false), (false, false), (true, true), (false, true)] {
        let checked = Arc::new(AtomicU64::new(0));
        let searched = Arc::new(AtomicU64::new(0));
        for puzzle in &puzzles {
            let mut cnf = Cnf::new();
            let map = encoding.encode_into(puzzle, &mut cnf);
            cnf.set_num_vars(map.num_vars());
            let mut reasoning = GridReasoning::locked(complete, !complete);
            if hall_sets {
                reasoning = reasoning.with_hall_sets(usize::MAX);
            }
            let theory = GridTheoryFactory::new(sudoku_structure(&map, encoding), reasoning)
                .expect("a grid of side 64 at most");
            let mut solver = Cdcl::new();
            let mut formula = if complete {
                let mut variables_only = Cnf::new();
                variables_only.set_num_vars(map.num_vars());
                variables_only
            } else {
                cnf.clone()
            };
            solver.add_formula(&mut formula);
            solver.connect_propagator(Some(Arc::new(CheckedReasons {
                theory,
                encoding: cnf,
                hall_sets,
                checked: checked.clone(),
                searched: searched.clone(),
            })));
            let SatOutcome::Sat(model) = solver.solve().unwrap() else {
                panic!("{puzzle} has a solution")
            };
            let grid = map.decode(&model).unwrap();
            assert!(check_solution(puzzle, &grid).is_valid());
        }
        assert!(
            checked.load(Ordering::Relaxed) > 100,
            "complete: {complete}, Hall sets: {hall_sets}"
        );
        // Hall sets of three or more cells are found, and their reasons searched.
        assert_eq!(
            searched.load(Ordering::Relaxed) > 0,
            hall_sets,
            "complete: {complete}"
        );
    }
}
