//! What root reasoning leaves: the candidates of every open cell, what each rule removed,
//! and how the reasoning ended.

use super::mode::RootMode;
use crate::alldifferent::Mask;
use crate::encode::{FreeVars, Pruned, SudokuEncoding, VarMap, VarRef};
use crate::formula::{ClauseSink, Cnf};
use crate::grid::{Cell, Digit, Grid};

/// A set of up to 448 vertices (digits, places in a unit, rows or columns).
pub(super) type Bits = [u64; 7];

/// What the reasoning removed, by rule, and what it cost.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RootRemovals {
    /// Candidates removed by the givens (what the encoder's reduction removes too) and
    /// by singles: a cell left one digit, a digit left one place in a unit.
    pub singles: u64,
    /// Candidates removed by locked candidates.
    pub locked: u64,
    /// Candidates removed by Hall sets of a row, column or box beyond singles.
    pub units: u64,
    /// Candidates removed by a Hall set of a digit's rows against its columns (fish).
    pub fish: u64,
    /// Rounds of Hall sets and fish: each filters every view changed since the last.
    pub rounds: u64,
    /// Steps of work: candidates removed and places looked at by the cheap rules, the
    /// vertices and edges of every view filtered by the Hall rounds.
    pub work: u64,
    /// Of `work`, the steps of the Hall rounds.
    pub hall_work: u64,
    /// Literals of the puzzle's extended, reduced formula when the reasoning started
    /// (after the givens' reduction) and when it stopped: each open cell and each digit a
    /// unit is not given have a group of k candidates, k² literals.
    pub literals_before: u64,
    /// See [`RootRemovals::literals_before`].
    pub literals_after: u64,
}

impl RootRemovals {
    /// The candidates removed in all.
    pub fn removed(&self) -> u64 {
        self.singles + self.locked + self.units + self.fish
    }
}

/// The candidates left where the reasoning stopped.
#[derive(Clone, Debug)]
pub struct RootCandidates {
    pub(super) box_size: usize,
    /// The puzzle's cells, row-major: a given's digit, 0 for an open cell.
    pub(super) givens: Vec<u16>,
    /// The open cells, in order, and the digits each has left (bit d for digit d + 1).
    pub(super) open: Vec<u32>,
    pub(super) cand: Vec<Bits>,
    /// What each rule removed.
    pub removals: RootRemovals,
}

/// How the reasoning ended.
#[derive(Clone, Debug)]
pub enum RootOutcome {
    /// At the fixpoint of every rule: the candidates left (a cell with one is fixed).
    Candidates(RootCandidates),
    /// A cell, unit or digit without a place: the puzzle has no solution.
    Contradiction(RootRemovals),
    /// The deadline passed or an interrupt came first; the candidates so far.
    Stopped(RootCandidates),
    /// A round of Hall sets and fish paid less than its price
    /// ([`super::RootPolicy::WhilePaying`]); the candidates so far, at the fixpoint of the
    /// cheap rules.
    Unpaid(RootCandidates),
}

impl RootOutcome {
    /// The candidates left, unless the puzzle was refuted.
    pub fn candidates(&self) -> Option<&RootCandidates> {
        match self {
            RootOutcome::Candidates(c) | RootOutcome::Stopped(c) | RootOutcome::Unpaid(c) => {
                Some(c)
            }
            RootOutcome::Contradiction(_) => None,
        }
    }

    /// What the reasoning removed and cost.
    pub fn removals(&self) -> &RootRemovals {
        match self {
            RootOutcome::Candidates(c) | RootOutcome::Stopped(c) | RootOutcome::Unpaid(c) => {
                &c.removals
            }
            RootOutcome::Contradiction(r) => r,
        }
    }

    /// How it ended, in a word (`--stats`' `root=`): `settled` (every cell fixed),
    /// `fixpoint`, `unpaid`, `stopped` or `refuted`.
    pub fn ending(&self) -> &'static str {
        match self {
            RootOutcome::Candidates(c) if c.fixed_cells() == c.givens.len() => "settled",
            RootOutcome::Candidates(_) => "fixpoint",
            RootOutcome::Unpaid(_) => "unpaid",
            RootOutcome::Stopped(_) => "stopped",
            RootOutcome::Contradiction(_) => "refuted",
        }
    }

    /// The puzzle as the CNF writer takes it ([`crate::encode::write_pruned_cnf`]): the
    /// cells fixed given, the candidates removed from the other open cells beyond the
    /// givens' own reduction, and a note of what was done (`mode` names it).
    pub fn pruned(&self, puzzle: &Grid, mode: RootMode) -> Pruned {
        let Some(candidates) = self.candidates() else {
            return Pruned {
                puzzle: puzzle.clone(),
                removed: Vec::new(),
                refuted: true,
                note: format!("{mode}, the puzzle refuted (no solution)"),
            };
        };
        let fixed = candidates.fixed_grid();
        let free = FreeVars::of(&fixed);
        let mut removed = Vec::new();
        for (&cell, cand) in candidates.open.iter().zip(&candidates.cand) {
            if cand.count() == 1 {
                continue;
            }
            let gone: Vec<Digit> = free.digits[free.cell_vars(Cell(cell))]
                .iter()
                .filter(|&&d| !cand.has(usize::from(d) - 1))
                .map(|&d| Digit(d))
                .collect();
            if !gone.is_empty() {
                removed.push((Cell(cell), gone));
            }
        }
        let stopped = match self {
            RootOutcome::Unpaid(_) => ", Hall sets stopped when a round no longer paid",
            RootOutcome::Stopped(_) => {
                ", stopped before its fixpoint (a time limit or an interrupt)"
            }
            _ => "",
        };
        let more: usize = removed.iter().map(|(_, digits)| digits.len()).sum();
        Pruned {
            note: format!(
                "{mode}, {} rounds of Hall sets{stopped}: {} cells fixed, and {more} \
                 candidates of the other open cells removed beyond what the givens exclude",
                candidates.removals.rounds,
                candidates.fixed_cells() - puzzle.num_givens(),
            ),
            puzzle: fixed,
            removed,
            refuted: false,
        }
    }
}

impl RootCandidates {
    /// The side of the grid.
    pub fn side(&self) -> usize {
        self.box_size * self.box_size
    }

    /// The number of cells with one candidate left.
    pub fn fixed_cells(&self) -> usize {
        let given = self.givens.len() - self.open.len();
        given + self.cand.iter().filter(|c| c.count() == 1).count()
    }

    /// The number of candidates left over every cell.
    pub fn candidates(&self) -> u64 {
        let given = (self.givens.len() - self.open.len()) as u64;
        given + self.cand.iter().map(|c| c.count() as u64).sum::<u64>()
    }

    /// The puzzle with every fixed cell given.
    pub fn fixed_grid(&self) -> Grid {
        let mut values = self.givens.clone();
        for (&cell, cand) in self.open.iter().zip(&self.cand) {
            if cand.count() == 1 {
                values[cell as usize] = cand.first().map_or(0, |d| d as u16 + 1);
            }
        }
        Grid::from_values(values).expect("the side of a supported grid")
    }

    /// Whether `digit` is still a candidate of `cell`.
    pub fn has(&self, cell: Cell, digit: Digit) -> bool {
        match self.givens[cell.index()] {
            0 => {
                let at = self.open.binary_search(&cell.0).expect("an open cell");
                self.cand[at].has(digit.get() - 1)
            }
            given => usize::from(given) == digit.get(),
        }
    }

    /// The formula of [`RootCandidates::fixed_grid`] under `encoding`, with each removed
    /// candidate of an open cell as a unit clause (its map decodes a model into a solution
    /// of the puzzle).
    pub fn to_cnf(&self, encoding: SudokuEncoding) -> (VarMap, Cnf) {
        let mut cnf = Cnf::new();
        let map = encoding.encode_into(&self.fixed_grid(), &mut cnf);
        cnf.set_num_vars(map.num_vars());
        self.add_removals(&map, &mut cnf);
        (map, cnf)
    }

    /// Each removed candidate of an open cell that has a variable in `map` (a map of
    /// [`RootCandidates::fixed_grid`]), as a unit clause into `sink`.
    pub fn add_removals(&self, map: &VarMap, sink: &mut impl ClauseSink) {
        let n = self.side();
        for (&cell, cand) in self.open.iter().zip(&self.cand) {
            if cand.count() == 1 {
                continue;
            }
            for d in (0..n).filter(|&d| !cand.has(d)) {
                if let VarRef::Var(var) = map.var(Cell(cell), Digit(d as u16 + 1)) {
                    sink.add_clause(&[var.lit(false)]);
                }
            }
        }
    }

    /// The candidates removed in all.
    pub fn removed(&self) -> u64 {
        self.removals.removed()
    }
}
