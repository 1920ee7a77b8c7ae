//! The grid as a theory in cdcl (`--propagate grid`, `--propagate grid-only`): its counts
//! equal Dancing Links' on random partial grids, and every reason it gives is one a proof
//! checker accepts. Its counts against clauses alone and its proofs are tested with the
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
use sudosat::formula::{Cnf, Lit, Var};
use sudosat::grid::{check_solution, read_puzzles_from_path, Cell, Digit, Grid};
use sudosat::solve::dlx;
use sudosat::solve::sat::sudoku_structure;
use sudosat::solve::Solver;
use sudosat_sat::propagation::{UnitPropagator, Value};

use common::{cdcl_propagating, fixture};

const THEORIES: [Propagate; 2] = [Propagate::Grid, Propagate::GridOnly];

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
/// extended encoding refutes the reason's negation (a DRAT checker's RUP test).
struct CheckedReasons {
    theory: Arc<GridTheoryFactory>,
    encoding: Cnf,
    checked: Arc<AtomicU64>,
}

struct Checked {
    theory: Box<dyn Propagator>,
    encoding: UnitPropagator,
    root: usize,
    checked: Arc<AtomicU64>,
}

impl PropagatorFactory for CheckedReasons {
    fn create(&self, num_vars: usize, proof_safe: bool) -> Option<Box<dyn Propagator>> {
        let mut encoding = UnitPropagator::new();
        assert!(encoding.load(&self.encoding).unwrap() && encoding.propagate());
        Some(Box::new(Checked {
            theory: self.theory.create(num_vars, proof_safe)?,
            root: encoding.trail().len(),
            encoding,
            checked: self.checked.clone(),
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
        assert!(
            refuted || !up.propagate(),
            "reason {out:?} is no RUP clause"
        );
        self.checked.fetch_add(1, Ordering::Relaxed);
    }
}

#[test]
fn every_reason_is_refuted_by_unit_propagation_on_the_encoding() {
    let mut puzzles = Vec::new();
    for file in ["hardest-20.txt", "sudoku-16-1.txt", "thesis-4x4.txt"] {
        puzzles.extend(read_puzzles_from_path(&fixture(file), None).unwrap());
    }
    let encoding = SudokuEncoding::new(BaseEncoding::Extended, true);
    for complete in [true, false] {
        let checked = Arc::new(AtomicU64::new(0));
        for puzzle in &puzzles {
            let mut cnf = Cnf::new();
            let map = encoding.encode_into(puzzle, &mut cnf);
            cnf.set_num_vars(map.num_vars());
            let reasoning = GridReasoning {
                complete,
                hidden_singles: complete,
                locked: true,
            };
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
                checked: checked.clone(),
            })));
            let SatOutcome::Sat(model) = solver.solve().unwrap() else {
                panic!("{puzzle} has a solution")
            };
            let grid = map.decode(&model).unwrap();
            assert!(check_solution(puzzle, &grid).is_valid());
        }
        assert!(
            checked.load(Ordering::Relaxed) > 100,
            "complete: {complete}"
        );
    }
}
