//! The SAT path as a grid-level [`Solver`]: encode the puzzle ([`crate::encode`]), solve the
//! formula with a [`SatBackend`], check the model against the formula (the backend does) and
//! decode it into a grid checked against the rules and the givens ([`VarMap::decode`]).
//!
//! Solutions are counted with blocking clauses (each found solution's true cell variables,
//! negated) added to the same backend, so an incremental backend never re-encodes.
//!
//! Three ways to load a puzzle ([`LoadMode`]): encode it anew into a reset backend (with
//! the encoding's reduction, in buffers refilled from one puzzle to the next); or keep the
//! empty grid's encoding loaded in one backend, loaded once per solver, and either fix each
//! puzzle's givens at the root and go back to the empty grid before the next puzzle
//! ([`SolveWithRootUnits`](crate::backend::SolveWithRootUnits): what is learnt from the
//! givens goes with them, so a puzzle's answer is the one it gets alone; the default up to
//! 9×9, [`loads_root_units`]), or solve each puzzle under its givens as assumptions
//! (MiniSat's incremental interface, Eén & Sörensson 2003), told between puzzles that it
//! may forget what it learnt ([`SatBackend::forget_learnt`]: cdcl keeps only its glue
//! clauses). Under assumptions, blocking clauses of a count carry an activation literal,
//! assumed during the count and retired after it, so they never cut a later puzzle's
//! solutions; with root units they go with the puzzle. A batch ([`Solver::solve_into`])
//! with root units or re-encoding allocates nothing per puzzle once its buffers have grown.
//!
//! **Proofs** ([`Solver::prove_next`]): the next solve or count asks its backend for a
//! DRAT proof, set right after the backend's reset and before its first `solve`, and keeps a
//! copy of every clause the backend gets (encoding, then blocking clauses). When the last
//! answer is UNSAT — "no solution", or no further solution after the blocking clauses, i.e.
//! "unique" — [`Solver::take_proof`] hands back that exact formula with the proof. A
//! puzzle with clashing givens, which is answered without a backend otherwise, is then encoded
//! without the reduction (the givens stay unit clauses, refuted by unit propagation) and
//! solved, so that it too comes with a formula and a proof. A proved call always re-encodes
//! (a proof starts with a fresh backend), whatever the [`LoadMode`].

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

pub use super::solver::{ProvenUnsat, SatStats};
pub use crate::backend::LoadMode;
use crate::backend::{
    BackendError, BackendSpec, CellDigit, GridReasoning, GridTheoryFactory, ProofTarget, Propagate,
    SatBackend, SatOutcome, SudokuPropagation, SudokuStructure, HALL_DEPTH,
};
use crate::encode::{BaseEncoding, Encoder, SudokuEncoding, VarMap, VarRef};
use crate::formula::{ClauseSink, Cnf, FormulaSize, Lit, Model, Var};
use crate::grid::{check_grid, Cell, Digit, Grid};
use crate::run::{Counters, Instant};
use crate::solve::root::{
    reason_at_root, RootMode, RootOutcome, WordCandidates, WordGoal, WordOutcome,
};
use crate::solve::{SolveOutcome, SolveReport, Solver};
use crate::Error;

/// The default encoding of the SAT path: the fastest measured (docs/history.md, "Encodings").
pub const DEFAULT_ENCODING: SudokuEncoding =
    SudokuEncoding::new(crate::encode::BaseEncoding::Extended, true);

/// Lets `backend` skip the encoding's `clauses` in its own model check when every variable
/// is a (cell, digit): each model is decoded into a grid and checked against the rules and
/// the givens, and a model that passes that check satisfies those clauses (a 9×9
/// batch under assumptions spent a third of its time re-checking ~12,000 clauses).
/// Auxiliary variables are not seen by the grid check, so their clauses stay checked.
fn trust_encoding(backend: &mut dyn SatBackend, map: &VarMap, clauses: usize) {
    if map.num_aux() == 0 {
        backend.trust_clauses(clauses);
    }
}

/// Tunes `backend` for the puzzle's encoding (learnt-clause shrinking, measured to pay on
/// the extended and augmented encodings: [`shrinks_learnt_clauses`]) and, for native
/// propagation, connects the Sudoku propagator, which knows which variable is which (cell,
/// digit) of `map`'s puzzle; the latter not when none runs on this grid (off, `auto`, or
/// wider than the propagator takes: the n³ table of a 400×400 grid would cost 512 MB for
/// nothing).
pub(crate) fn give_structure(
    backend: &mut dyn SatBackend,
    map: &VarMap,
    encoding: SudokuEncoding,
    propagate: Propagate,
) {
    backend.set_shrinking(shrinks_learnt_clauses(encoding));
    let puzzle = map.puzzle();
    let n = puzzle.side();
    if propagate.on_side(n).is_none() {
        return;
    }
    let structure = sudoku_structure(map, encoding);
    // Only cdcl takes a propagator; the others solve the clauses alone, as before.
    let Some(propagating) = backend.as_propagating() else {
        return;
    };
    if propagate.is_grid_theory() {
        let mut reasoning =
            GridReasoning::locked(propagate.without_grid_clauses(), structure.unit_clauses);
        if propagate.with_hall_sets() {
            reasoning = reasoning.with_hall_sets(HALL_DEPTH);
        }
        if let Some(theory) = GridTheoryFactory::new(structure, reasoning) {
            propagating.connect_propagator(Some(theory));
        }
    } else if let Some(propagation) = SudokuPropagation::new(structure, propagate) {
        propagating.connect_propagator(Some(propagation));
    }
}

/// Which variable of `map` is which (cell, digit), for a propagator.
pub fn sudoku_structure(map: &VarMap, encoding: SudokuEncoding) -> SudokuStructure {
    let puzzle = map.puzzle();
    let n = puzzle.side();
    let mut cells = Vec::with_capacity(n * n * n);
    for cell in puzzle.geometry().cells() {
        for digit in puzzle.geometry().digits() {
            cells.push(match map.var(cell, digit) {
                VarRef::Var(var) => CellDigit::Var(var),
                VarRef::True => CellDigit::True,
                VarRef::False => CellDigit::False,
            });
        }
    }
    SudokuStructure {
        box_size: puzzle.box_size(),
        cells,
        unit_clauses: encoding.base != BaseEncoding::Minimal,
    }
}

/// Whether the SAT path leaves the grid's clauses out of the formula for `propagate` on a
/// grid of side `n` with `backend`: only when the theory takes them over, and not for a
/// proof, whose checker needs the clauses its lemmas follow from.
fn theory_holds_grid(
    propagate: Propagate,
    n: usize,
    backend: &mut dyn SatBackend,
    proof: bool,
) -> bool {
    propagate
        .on_side(n)
        .is_some_and(Propagate::without_grid_clauses)
        && !proof
        && backend.as_propagating().is_some()
}

/// The variables of `puzzle` under `encoding` with none of the grid's clauses: only the
/// givens as unit clauses when the encoding keeps them as variables.
fn encode_variables_only(puzzle: &Grid, encoding: SudokuEncoding, formula: &mut Cnf) -> VarMap {
    let map = if encoding.reduced {
        VarMap::reduced(puzzle)
    } else {
        VarMap::base(puzzle)
    };
    for (cell, digit) in puzzle.givens() {
        if let VarRef::Var(var) = map.var(cell, digit) {
            formula.add_clause(&[var.positive()]);
        }
    }
    map
}

/// A time-out of a puzzle begun at `started` (its encoding or reasoning) against `limit`.
fn timed_out(solver: String, limit: Duration, started: Instant) -> Error {
    let took = started.elapsed();
    Error::TimedOut {
        solver,
        limit,
        // Past a second over the limit, say so: the message would be wrong.
        took: (took > limit + Duration::from_secs(1)).then_some(took),
    }
}

/// The widest grid [`LoadMode::Auto`] loads once and solves with root units: 9×9 (measured
/// in docs/benchmarks/nine.md, "9×9 sets"; wider grids' puzzles are fewer and their searches
/// longer, where the puzzle's own reduced formula serves better).
pub const ROOT_UNITS_MAX_SIDE: usize = 9;

/// Whether [`LoadMode::Auto`] solves a puzzle of side `n` in `encoding` with the empty
/// grid loaded once and the givens as root units: a classic encoding (minimal or extended),
/// reduced — the reduction's variables are then those the givens fix at the root — on
/// grids up to [`ROOT_UNITS_MAX_SIDE`].
pub fn loads_root_units(encoding: SudokuEncoding, n: usize) -> bool {
    encoding.is_classic() && encoding.reduced && n <= ROOT_UNITS_MAX_SIDE
}

/// Whether cdcl shrinks learnt clauses on formulas of `encoding` ([`SatBackend::set_shrinking`]):
/// on the extended and augmented encodings it took 25–32 % less CPU on the gecode 25×25
/// draws, on the minimal one it cost up to 240× more conflicts on sparse 16×16 puzzles
/// (docs/history.md, "The CDCL search").
pub fn shrinks_learnt_clauses(encoding: SudokuEncoding) -> bool {
    encoding.base != BaseEncoding::Minimal
}

/// Encoding + SAT backend → decoded, checked grid.
pub struct SatSolver {
    encoding: SudokuEncoding,
    spec: BackendSpec,
    /// Created on first use and reset (buffers kept) for each puzzle.
    backend: Option<Box<dyn SatBackend>>,
    /// Whether `backend` stops at a time limit, asked when it was created.
    backend_stops: bool,
    /// The interrupt flag handed to the backend ([`Solver::set_interrupt`]).
    interrupt: Option<Arc<AtomicBool>>,
    /// The formula being built for a puzzle, handed to the backend whole; its buffers go
    /// back and forth with the backend's, so no puzzle allocates them anew.
    formula: Cnf,
    /// Encodes each puzzle loaded alone, and keeps its map, in buffers refilled from one
    /// puzzle to the next.
    encoder: Encoder,
    /// The solutions a count decodes and checks before it keeps them (one buffer for all).
    scratch_grid: Option<Grid>,
    stats: SatStats,
    time_limit: Option<Duration>,
    mode: LoadMode,
    /// In [`LoadMode::Assumptions`] and [`LoadMode::RootUnits`]: the map of the empty grid
    /// whose encoding the backend holds, and that formula's size …
    loaded: Option<(VarMap, FormulaSize)>,
    /// … and which of the two modes it was loaded for.
    loaded_mode: LoadMode,
    /// The current puzzle's givens as root units ([`LoadMode::RootUnits`]).
    units: Vec<Lit>,
    /// The cheap rules on the grids held loaded, before the backend sees a puzzle
    /// ([`SatSolver::settle_at_root`]).
    word_root: WordCandidates,
    /// Whether `word_root` left the puzzle open: the next load encodes what it left
    /// ([`SatSolver::encode_word_rest`]) …
    word_open: bool,
    /// … into the puzzle with the cells it placed, a buffer kept from one puzzle to the
    /// next.
    word_grid: Option<Grid>,
    /// Next free variable for an activation literal (after the loaded formula's).
    next_activation: usize,
    /// Literals of the blocking clauses added to the loaded empty grid since it was loaded.
    /// Retired clauses stay in the backend's copy of the formula (model checks read them),
    /// so once they outweigh the encoding the empty grid is loaded afresh: memory and the
    /// cost per solve stay within twice the encoding's over any batch.
    retired_literals: usize,
    /// The current puzzle's givens as literals (assumptions).
    assumptions: Vec<Lit>,
    /// The proof asked for the next solve or count ([`Solver::prove_next`]).
    proof_request: Option<ProofTarget>,
    /// During a proved solve: every clause the backend got.
    proof_formula: Option<Cnf>,
    /// The proof of the last answer, when it was UNSAT.
    proven: Option<ProvenUnsat>,
    /// When the current puzzle's encoding began (set by every load, the clash proof's
    /// included): each solve of the puzzle gets what is left of the time limit, so the
    /// limit covers encoding and loading too, and a count's solves share it.
    load_started: Option<Instant>,
    /// What root reasoning did to the last puzzle encoded alone.
    root_counters: Vec<(&'static str, u64)>,
}

impl SatSolver {
    /// A solver with the given encoding and backend.
    pub fn new(encoding: SudokuEncoding, spec: BackendSpec) -> SatSolver {
        SatSolver {
            encoding,
            time_limit: spec.timeout,
            mode: spec.load,
            spec,
            backend: None,
            backend_stops: false,
            interrupt: None,
            formula: Cnf::new(),
            encoder: Encoder::new(encoding),
            scratch_grid: None,
            stats: SatStats::default(),
            loaded: None,
            loaded_mode: LoadMode::Reencode,
            units: Vec::new(),
            word_root: WordCandidates::default(),
            word_open: false,
            word_grid: None,
            next_activation: 0,
            retired_literals: 0,
            assumptions: Vec::new(),
            proof_request: None,
            proof_formula: None,
            proven: None,
            load_started: None,
            root_counters: Vec::new(),
        }
    }

    /// With a load mode (see [`LoadMode`]).
    pub fn with_load_mode(mut self, mode: LoadMode) -> SatSolver {
        self.mode = mode;
        self
    }

    /// The load mode asked for.
    pub fn load_mode(&self) -> LoadMode {
        self.mode
    }

    /// Ends a proved call: keeps the formula and the finished proof when it ended in UNSAT.
    fn end_proof(
        &mut self,
        unsat: bool,
        encoding: SudokuEncoding,
        blocking: usize,
    ) -> Result<(), Error> {
        let target = self.proof_request.take();
        let formula = self.proof_formula.take();
        if let (Some(target), Some(formula)) = (target, formula) {
            let backend = self.backend();
            backend.finish_proof()?;
            let name = backend.name();
            backend.set_proof(None)?;
            if unsat {
                self.proven = Some(ProvenUnsat {
                    formula,
                    encoding,
                    blocking,
                    proof: target,
                    backend: name,
                });
            }
        }
        Ok(())
    }

    /// The encoding used.
    pub fn encoding(&self) -> SudokuEncoding {
        self.encoding
    }

    /// The backend spec used.
    pub fn spec(&self) -> &BackendSpec {
        &self.spec
    }

    /// Figures of the last solve or count.
    pub fn stats(&self) -> &SatStats {
        &self.stats
    }

    /// Creates the backend on first use, under the time limit set.
    fn ensure_backend(&mut self) -> Result<(), Error> {
        if self.backend.is_none() {
            let mut backend = self.spec.create()?;
            backend.set_time_limit(self.time_limit);
            backend.set_free_interrupt(self.interrupt.clone());
            self.backend_stops = backend.honours_time_limit();
            self.backend = Some(backend);
        }
        Ok(())
    }

    /// How `puzzle` is loaded: the mode asked for where the backend and the options allow
    /// it, else encoded alone. A proof always encodes the puzzle alone (a proof starts with
    /// a fresh backend), and so does native propagation under root units.
    fn mode_for(&mut self, puzzle: &Grid) -> LoadMode {
        if self.proof_request.is_some() {
            return LoadMode::Reencode;
        }
        let n = puzzle.side();
        let native = self.spec.propagate.on_side(n).is_some();
        let backend = self.backend.as_deref_mut().expect("backend created");
        match self.mode {
            LoadMode::Assumptions if backend.takes_assumptions() => LoadMode::Assumptions,
            LoadMode::RootUnits if !native && backend.as_root_units().is_some() => {
                LoadMode::RootUnits
            }
            LoadMode::Auto
                if loads_root_units(self.encoding, n)
                    && !native
                    && self.spec.root.policy(n).is_none()
                    && backend.as_root_units().is_some() =>
            {
                LoadMode::RootUnits
            }
            _ => LoadMode::Reencode,
        }
    }

    /// Loads `puzzle`: encodes it into a fresh (reset) backend and answers `true` (the map
    /// is the encoder's), or, in [`LoadMode::Assumptions`] and [`LoadMode::RootUnits`],
    /// makes sure the empty grid of its size is loaded, hands the backend its givens
    /// (`self.assumptions`, or the query's root units) and answers `false` (the map is
    /// `self.loaded`'s).
    fn load(&mut self, puzzle: &Grid) -> Result<bool, Error> {
        self.ensure_backend()?;
        self.assumptions.clear();
        let mode = self.mode_for(puzzle);
        if mode == LoadMode::Reencode {
            self.encode_alone(puzzle, self.encoding)?;
            return Ok(true);
        }
        if std::mem::take(&mut self.word_open) {
            self.encode_word_rest(puzzle)?;
            return Ok(true);
        }
        let start = Instant::now();
        self.load_started = Some(start);
        let reload = match &self.loaded {
            Some((map, size)) => {
                map.puzzle().side() != puzzle.side()
                    || self.loaded_mode != mode
                    || self.retired_literals > size.literals
            }
            None => true,
        };
        if reload {
            let empty = Grid::empty(puzzle.box_size()).expect("the puzzle's box size is valid");
            let backend = self.backend.as_deref_mut().expect("backend created above");
            backend.reset();
            self.formula.clear();
            let encoding = SudokuEncoding::new(self.encoding.base, false);
            let map = if theory_holds_grid(self.spec.propagate, empty.side(), backend, false) {
                encode_variables_only(&empty, encoding, &mut self.formula)
            } else {
                encoding.encode_into(&empty, &mut self.formula)
            };
            self.formula.set_num_vars(map.num_vars());
            let size = self.formula.size();
            backend.add_formula(&mut self.formula);
            trust_encoding(backend, &map, size.clauses);
            give_structure(backend, &map, encoding, self.spec.propagate);
            if mode == LoadMode::RootUnits {
                backend
                    .as_root_units()
                    .expect("asked in mode_for")
                    .set_base()?;
            }
            self.next_activation = map.num_vars();
            self.retired_literals = 0;
            self.loaded = Some((map, size));
            self.loaded_mode = mode;
        } else if mode == LoadMode::Assumptions {
            // A new puzzle: what was learnt on the last one rarely serves it.
            self.backend().forget_learnt();
        }
        let (map, size) = self.loaded.as_ref().expect("loaded above");
        let literal = |(cell, digit): (Cell, Digit)| match map.var(cell, digit) {
            VarRef::Var(var) => var.positive(),
            // The empty grid's numbering fixes no variable.
            fixed => unreachable!("unreduced map fixed ({cell:?}, {digit:?}): {fixed:?}"),
        };
        let givens = puzzle.givens().map(literal);
        if mode == LoadMode::Assumptions {
            self.assumptions.extend(givens);
        } else {
            self.units.clear();
            self.units.extend(givens);
            let backend = self.backend.as_deref_mut().expect("backend created above");
            backend
                .as_root_units()
                .expect("asked in mode_for")
                .start_query(&self.units)?;
        }
        self.stats = SatStats {
            size: *size,
            empty_grid: true,
            encode_time: start.elapsed(),
            ..SatStats::default()
        };
        Ok(false)
    }

    /// Encodes `puzzle` alone into the reset backend, its map kept by the encoder; with a
    /// proof asked for, sets it on the backend and keeps a copy of the formula.
    fn encode_alone(&mut self, puzzle: &Grid, encoding: SudokuEncoding) -> Result<(), Error> {
        self.ensure_backend()?;
        let backend = self.backend.as_deref_mut().expect("backend created");
        backend.reset();
        // The backend no longer holds an empty grid for the assumptions mode.
        self.loaded = None;
        self.proof_formula = None;
        if let Some(target) = &self.proof_request {
            backend.set_proof(Some(target.clone()))?;
        }
        let start = Instant::now();
        self.load_started = Some(start);
        self.formula.clear();
        let proof = self.proof_request.is_some();
        // A proof's checker needs the puzzle's own formula: no reasoning before it.
        let mode = if proof {
            RootMode::None
        } else {
            self.spec.root
        };
        let (limit, interrupt) = (self.time_limit, self.interrupt.clone());
        let root = reason_at_root(puzzle, mode, || {
            limit.is_some_and(|limit| start.elapsed() >= limit)
                || interrupt
                    .as_ref()
                    .is_some_and(|flag| flag.load(Ordering::Relaxed))
        });
        let fixed;
        let (grid, candidates) = match root.as_ref().and_then(RootOutcome::candidates) {
            Some(c) => {
                fixed = c.fixed_grid();
                (&fixed, Some(c))
            }
            None => (puzzle, None),
        };
        let map = if theory_holds_grid(self.spec.propagate, puzzle.side(), backend, proof) {
            let map = encode_variables_only(grid, encoding, &mut self.formula);
            self.encoder.set_map(map);
            self.encoder.map().expect("set above")
        } else if encoding == self.encoder.encoding() {
            self.encoder.encode(grid, &mut self.formula)
        } else {
            self.encoder
                .set_map(encoding.encode_into(grid, &mut self.formula));
            self.encoder.map().expect("set above")
        };
        self.root_counters.clear();
        if let Some(root) = &root {
            let removals = root.removals();
            self.root_counters.extend([
                ("root_us", start.elapsed().as_micros() as u64),
                ("root_removed", removals.removed()),
                ("root_singles", removals.singles),
                ("root_rounds", removals.rounds),
                ("root_work", removals.work),
                ("root_hall_work", removals.hall_work),
            ]);
        }
        if let Some(candidates) = candidates {
            candidates.add_removals(map, &mut self.formula);
            self.root_counters.push((
                "root_fixed",
                (candidates.fixed_cells() - puzzle.num_givens()) as u64,
            ));
        }
        if let Some(RootOutcome::Contradiction(_)) = root {
            // No solution: the empty clause says so to every backend.
            self.formula.add_clause(&[]);
            self.root_counters.push(("root_refuted", 1));
        }
        self.formula.set_num_vars(map.num_vars());
        let size = self.formula.size();
        if self.proof_request.is_some() {
            self.proof_formula = Some(self.formula.clone());
        }
        backend.add_formula(&mut self.formula);
        trust_encoding(backend, map, size.clauses);
        give_structure(backend, map, encoding, self.spec.propagate);
        self.stats = SatStats {
            size,
            encode_time: start.elapsed(),
            root: root.as_ref().map(RootOutcome::ending),
            ..SatStats::default()
        };
        Ok(())
    }

    /// Encodes what the rules on bit boards left of `puzzle` alone into the reset backend:
    /// the grid with the cells they placed, in the reduced encoding, and a unit clause for
    /// each other candidate they removed. Few puzzles get here (16 of minimal-2k, 11 of
    /// expert-375), so the held empty grid, which costs more to build than a few dozen of
    /// these small formulas, is not loaded for them (docs/benchmarks/nine.md, "Root
    /// reasoning on 9×9").
    fn encode_word_rest(&mut self, puzzle: &Grid) -> Result<(), Error> {
        let backend = self.backend.as_deref_mut().expect("backend created");
        backend.reset();
        // The backend no longer holds an empty grid.
        self.loaded = None;
        let start = Instant::now();
        self.load_started = Some(start);
        self.formula.clear();
        let placed = match &mut self.word_grid {
            Some(grid) => {
                grid.clone_from(puzzle);
                grid
            }
            none => none.insert(puzzle.clone()),
        };
        self.word_root.write_placements(placed);
        let placed = &*placed;
        let map = if self.encoding == self.encoder.encoding() {
            self.encoder.encode(placed, &mut self.formula)
        } else {
            self.encoder
                .set_map(self.encoding.encode_into(placed, &mut self.formula));
            self.encoder.map().expect("set above")
        };
        self.word_root.add_removals(map, &mut self.formula);
        self.formula.set_num_vars(map.num_vars());
        let size = self.formula.size();
        backend.add_formula(&mut self.formula);
        trust_encoding(backend, map, size.clauses);
        give_structure(backend, map, self.encoding, self.spec.propagate);
        self.root_counters.clear();
        self.stats = SatStats {
            size,
            encode_time: start.elapsed(),
            ..SatStats::default()
        };
        Ok(())
    }

    /// Whether the interrupt flag ([`Solver::set_interrupt`]) is set.
    fn interrupted(&self) -> bool {
        self.interrupt
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
    }

    fn backend(&mut self) -> &mut dyn SatBackend {
        self.backend.as_deref_mut().expect("loaded")
    }

    /// One backend solve. It gets the time limit less the time since the puzzle's load
    /// began (a 100×100 empty grid takes seconds to encode; a count has made earlier
    /// solves), and a time-out reports the whole limit, with how long the puzzle really
    /// took when an uninterruptible step (encoding; splr loading its clauses) ran far past
    /// it.
    fn timed_solve(&mut self) -> Result<SatOutcome, Error> {
        let start = Instant::now();
        let load_started = self.load_started;
        let limit = self.time_limit;
        let timed_out = |solver: String, started: Option<Instant>| {
            timed_out(solver, limit.unwrap_or_default(), started.unwrap_or(start))
        };
        let shortened = match (limit, load_started) {
            (Some(limit), Some(started)) => {
                let spent = started.elapsed();
                if spent >= limit {
                    return Err(timed_out(self.backend().name(), Some(started)));
                }
                self.backend().set_time_limit(Some(limit - spent));
                true
            }
            _ => false,
        };
        let assumptions = std::mem::take(&mut self.assumptions);
        let outcome = if assumptions.is_empty() {
            self.backend().solve()
        } else {
            self.backend().solve_under(&assumptions)
        };
        self.assumptions = assumptions;
        if shortened {
            self.backend().set_time_limit(limit);
        }
        self.stats.solve_time += start.elapsed();
        if outcome.is_err() {
            // A time-out or failure still reports the work done until then.
            self.stats.backend = self.backend().counters();
        }
        match outcome {
            Err(BackendError::Timeout { solver, .. }) if limit.is_some() => {
                Err(timed_out(solver, load_started))
            }
            outcome => Ok(outcome?),
        }
    }

    /// Decodes a model into `grid` with the puzzle's own map (`alone`), or with the loaded
    /// empty grid's (then the givens are checked here: the empty grid's map knows none).
    fn decode_into(
        &mut self,
        puzzle: &Grid,
        alone: bool,
        model: &Model,
        grid: &mut Grid,
    ) -> Result<(), Error> {
        let start = Instant::now();
        let map = if alone {
            self.encoder.map().expect("encoded")
        } else {
            &self.loaded.as_ref().expect("loaded").0
        };
        map.decode_into(model, puzzle, grid)?;
        self.stats.decode_time += start.elapsed();
        Ok(())
    }

    /// Gives a decoded model's buffer back to the backend, for its next model.
    fn recycle(&mut self, model: Model) {
        self.backend().recycle_model(model);
    }

    /// The backend's counters with the formula's size and root reasoning's, for the
    /// report; also kept in the statistics ([`Solver::sat_stats`]).
    fn finish_counters(&mut self) -> Counters {
        let mut counters = self.backend().counters();
        counters.0.extend([
            ("vars", self.stats.size.vars as u64),
            ("clauses", self.stats.size.clauses as u64),
            ("literals", self.stats.size.literals as u64),
        ]);
        counters.0.extend(self.root_counters.iter().copied());
        self.record_counters();
        counters
    }

    /// Keeps the backend's counters and root reasoning's in the statistics.
    fn record_counters(&mut self) {
        self.stats.backend = self.backend().counters();
        self.stats
            .backend
            .0
            .extend(self.root_counters.iter().copied());
    }

    /// Counts solutions up to `limit` (0 = no limit) and returns them all, each checked.
    /// The time limit ([`Solver::set_time_limit`]) covers the whole count: each solve gets
    /// what the encoding and the earlier solves left.
    ///
    /// # Errors
    /// A backend failure, a time-out, or a model that does not decode to a solution.
    pub fn solutions(&mut self, puzzle: &Grid, limit: u64) -> Result<Vec<Grid>, Error> {
        let mut found = Vec::new();
        self.each_solution(puzzle, limit, |grid| found.push(grid.clone()))?;
        Ok(found)
    }

    /// Counts solutions up to `limit` (0 = no limit) as [`SatSolver::solutions`] finds
    /// them, calling `each` with every one, decoded and checked in a buffer kept from one
    /// count to the next (a count keeps no grid of its own).
    fn each_solution(
        &mut self,
        puzzle: &Grid,
        limit: u64,
        mut each: impl FnMut(&Grid),
    ) -> Result<u64, Error> {
        if !check_grid(puzzle).is_valid() {
            self.prove_clash(puzzle)?;
            return Ok(0);
        }
        let mut grid = match self.scratch_grid.take() {
            Some(grid) => grid,
            None => puzzle.clone(),
        };
        let settled = self.settle_at_root(puzzle, &mut grid, WordGoal::EverySolution);
        if let Ok(Some(outcome)) = &settled {
            // Settled: the one solution; refuted: none.
            let found = matches!(outcome, SolveOutcome::Solved(()));
            if found {
                each(&grid);
            }
            self.scratch_grid = Some(grid);
            self.finish_root_counters();
            return Ok(u64::from(found));
        }
        if let Err(error) = settled {
            self.scratch_grid = Some(grid);
            return Err(error);
        }
        let alone = self.load(puzzle)?;
        // Under assumptions, blocking clauses hold only while their activation literal is
        // assumed; it is retired (asserted false) after the count. (A query with root units
        // drops its clauses by itself.)
        let activation = (!alone && self.loaded_mode == LoadMode::Assumptions).then(|| {
            let var = Var::from_index(self.next_activation);
            self.next_activation += 1;
            self.assumptions.push(var.positive());
            var
        });
        let num_cell_vars = if alone {
            self.encoder.map().expect("encoded").num_vars()
        } else {
            self.loaded.as_ref().expect("loaded").0.num_vars()
        };
        let mut found = 0;
        let mut blocking = Vec::new();
        let mut unsat = false;
        let mut blocked = 0;
        let result = loop {
            if limit != 0 && found >= limit {
                break Ok(());
            }
            // A solve that needs no search never looks at the interrupt: a count of many
            // easy solutions stops here, as an interrupted solve does, as a time-out.
            if self.interrupted() {
                break Err(Error::Backend(BackendError::Timeout {
                    solver: self.backend().name(),
                    timeout: self.load_started.map_or(Duration::ZERO, |t| t.elapsed()),
                }));
            }
            let model = match self.timed_solve() {
                Ok(SatOutcome::Unsat) => {
                    unsat = true;
                    break Ok(());
                }
                Ok(SatOutcome::Sat(model)) => model,
                Err(error) => break Err(error),
            };
            if let Err(error) = self.decode_into(puzzle, alone, &model, &mut grid) {
                break Err(error);
            }
            found += 1;
            each(&grid);
            blocking.clear();
            blocking.extend(
                (0..num_cell_vars)
                    .map(Var::from_index)
                    .filter(|&v| model.value(v))
                    .map(|v| v.negative()),
            );
            self.recycle(model);
            if blocking.is_empty() && self.proof_formula.is_none() {
                // Every cell is given: nothing to block, the solution is the only one.
                break Ok(());
            }
            // (With a proof, the empty clause blocks it: the proof refutes that.)
            blocking.extend(activation.map(|a| a.negative()));
            if activation.is_some() {
                self.retired_literals += blocking.len();
            }
            self.backend().add_clause(&blocking);
            if let Some(formula) = &mut self.proof_formula {
                formula.add_clause(&blocking);
            }
            blocked += 1;
        };
        self.scratch_grid = Some(grid);
        if let Some(activation) = activation {
            self.backend().add_clause(&[activation.negative()]);
        }
        result?;
        self.record_counters();
        self.end_proof(unsat, self.encoding, blocked)?;
        Ok(found)
    }

    /// Solves `puzzle` into `grid`; with `counted`, also the backend's counters (the report
    /// of [`Solver::solve`]), else none: a batch's solve allocates nothing.
    fn solve_to(
        &mut self,
        puzzle: &Grid,
        grid: &mut Grid,
        counted: bool,
    ) -> Result<(SolveOutcome<()>, Counters), Error> {
        if !check_grid(puzzle).is_valid() {
            self.prove_clash(puzzle)?;
            return Ok((SolveOutcome::NoSolution, Counters::default()));
        }
        if let Some(outcome) = self.settle_at_root(puzzle, grid, WordGoal::AnySolution)? {
            let counters = if counted {
                self.finish_root_counters()
            } else {
                Counters::default()
            };
            return Ok((outcome, counters));
        }
        let alone = self.load(puzzle)?;
        let outcome = match self.timed_solve()? {
            SatOutcome::Unsat => SolveOutcome::NoSolution,
            SatOutcome::Sat(model) => {
                let decoded = self.decode_into(puzzle, alone, &model, grid);
                self.recycle(model);
                decoded?;
                SolveOutcome::Solved(())
            }
        };
        let counters = if counted {
            self.finish_counters()
        } else {
            Counters::default()
        };
        let unsat = outcome == SolveOutcome::NoSolution;
        self.end_proof(unsat, self.encoding, 0)?;
        Ok((outcome, counters))
    }

    /// On the grids held loaded with root units, `--root auto` first applies singles and
    /// failed-literal probing on bit boards ([`WordCandidates`]): a puzzle they settle is
    /// solved (its only solution), one they refute has none, and for `goal`
    /// [`WordGoal::AnySolution`] one a probe settles is solved by the probe's solution,
    /// without the backend; `None` leaves the puzzle to the search, on a formula of what
    /// they left (the next [`SatSolver::load`], [`SatSolver::encode_word_rest`]). Singles
    /// are the extended encoding's unit propagation, and probing cdcl's own lookahead,
    /// done on masks several times cheaper than through the held formula's clause lists
    /// (docs/benchmarks/nine.md, "Root reasoning on 9×9").
    fn settle_at_root(
        &mut self,
        puzzle: &Grid,
        grid: &mut Grid,
        goal: WordGoal,
    ) -> Result<Option<SolveOutcome<()>>, Error> {
        self.word_open = false;
        if self.spec.root != RootMode::Auto {
            return Ok(None);
        }
        self.ensure_backend()?;
        if self.mode_for(puzzle) != LoadMode::RootUnits {
            return Ok(None);
        }
        let start = Instant::now();
        let reasoned = self.word_root.reason(puzzle, goal);
        if let Some(limit) = self.time_limit.filter(|&limit| start.elapsed() >= limit) {
            return Err(timed_out(self.backend().name(), limit, start));
        }
        let (outcome, ending) = match reasoned {
            WordOutcome::Open => {
                self.word_open = true;
                return Ok(None);
            }
            WordOutcome::Settled | WordOutcome::Probed => {
                // The buffer may hold a grid of another size (a batch mixes sizes).
                grid.clone_from(puzzle);
                self.word_root.write_placements(grid);
                let ending = if reasoned == WordOutcome::Settled {
                    "settled"
                } else {
                    "probed"
                };
                (SolveOutcome::Solved(()), ending)
            }
            WordOutcome::Contradiction => (SolveOutcome::NoSolution, "refuted"),
        };
        self.stats = SatStats {
            encode_time: start.elapsed(),
            root: Some(ending),
            ..SatStats::default()
        };
        Ok(Some(outcome))
    }

    /// The counters of a puzzle answered at the root ([`SatSolver::settle_at_root`]): the
    /// backend's, all zero (no search), and an empty formula.
    fn finish_root_counters(&mut self) -> Counters {
        let names = self.backend().counters().0.into_iter();
        self.stats.backend = Counters(names.map(|(name, _)| (name, 0)).collect());
        let mut counters = self.stats.backend.clone();
        counters
            .0
            .extend([("vars", 0), ("clauses", 0), ("literals", 0)]);
        counters
    }

    /// A puzzle with clashing givens: no solution, without a backend unless a proof is asked
    /// for; then the puzzle is encoded unreduced (the clashing givens are unit clauses) and
    /// refuted by the backend.
    fn prove_clash(&mut self, puzzle: &Grid) -> Result<(), Error> {
        self.stats = SatStats::default();
        if self.proof_request.is_none() {
            return Ok(());
        }
        let encoding = SudokuEncoding::new(self.encoding.base, false);
        self.encode_alone(puzzle, encoding)?;
        let unsat = self.timed_solve()? == SatOutcome::Unsat;
        self.finish_counters();
        self.end_proof(unsat, encoding, 0)
    }
}

impl Solver for SatSolver {
    /// Asks the next [`Solver::solve`], [`SatSolver::solutions`] or
    /// [`Solver::count_solutions`] for a DRAT proof of its final UNSAT answer at `target`
    /// (the request holds for that one call). The backend must write proofs
    /// ([`crate::backend::WriteProofs`]); the call fails otherwise.
    fn prove_next(&mut self, target: Option<ProofTarget>) -> bool {
        self.proof_request = target;
        self.proven = None;
        true
    }

    /// The proof of the last call's answer, when a proof was asked for and the answer ended
    /// in UNSAT ("no solution", or "unique": no solution besides the one blocked).
    fn take_proof(&mut self) -> Option<ProvenUnsat> {
        self.proven.take()
    }

    fn name(&self) -> String {
        "sat".to_string()
    }

    fn solve(&mut self, puzzle: &Grid) -> Result<SolveReport, Error> {
        let mut grid = puzzle.clone();
        let (outcome, counters) = self.solve_to(puzzle, &mut grid, true)?;
        let outcome = match outcome {
            SolveOutcome::Solved(()) => SolveOutcome::Solved(grid),
            SolveOutcome::NoSolution => SolveOutcome::NoSolution,
            SolveOutcome::Stopped(why) => SolveOutcome::Stopped(why),
        };
        Ok(SolveReport { outcome, counters })
    }

    fn solve_into(
        &mut self,
        puzzle: &Grid,
        solution: &mut Grid,
    ) -> Result<SolveOutcome<()>, Error> {
        Ok(self.solve_to(puzzle, solution, false)?.0)
    }

    fn count_solutions(&mut self, puzzle: &Grid, limit: u64) -> Result<Option<u64>, Error> {
        self.each_solution(puzzle, limit, |_| {}).map(Some)
    }

    /// The limit applies to each backend `solve` call (a count makes several).
    fn set_time_limit(&mut self, limit: Option<Duration>) {
        self.time_limit = limit;
        if let Some(backend) = self.backend.as_deref_mut() {
            backend.set_time_limit(limit);
        }
    }

    /// Handed to the backend where it can be interrupted ([`crate::backend::Interrupt`])
    /// at no cost to its solves: varisat without a time limit is left without it
    /// ([`crate::backend::Interrupt::interrupt_slows_solves`]), since its solves are what
    /// compare times.
    fn set_interrupt(&mut self, flag: Option<Arc<AtomicBool>>) {
        self.interrupt = flag.clone();
        if let Some(backend) = self.backend.as_deref_mut() {
            backend.set_free_interrupt(flag);
        }
    }

    /// Asked of the backend when it was made (of a fresh one if no puzzle was solved yet).
    fn honours_time_limit(&self) -> bool {
        match self.backend {
            Some(_) => self.backend_stops,
            None => self
                .spec
                .create()
                .is_ok_and(|mut backend| backend.honours_time_limit()),
        }
    }

    fn sat_stats(&self) -> Option<&SatStats> {
        Some(&self.stats)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::BackendKind;

    #[test]
    fn a_count_stops_between_its_solves_at_the_interrupt() {
        // The empty 9×9 grid: every solve is easy, and there are 6.7 × 10^21 of them.
        let empty = Grid::empty(3).unwrap();
        for kind in [BackendKind::Cdcl, BackendKind::Dpll] {
            let mut solver = SatSolver::new(DEFAULT_ENCODING, BackendSpec::new(kind));
            let flag = Arc::new(AtomicBool::new(false));
            solver.set_interrupt(Some(Arc::clone(&flag)));
            assert_eq!(solver.count_solutions(&empty, 3).unwrap(), Some(3));
            flag.store(true, Ordering::Relaxed);
            match solver.count_solutions(&empty, 0) {
                Err(e) => assert!(e.is_timeout(), "{kind}: {e}"),
                other => panic!("{kind}: {other:?}"),
            }
            // Lifted, the same solver counts again.
            flag.store(false, Ordering::Relaxed);
            assert_eq!(solver.count_solutions(&empty, 2).unwrap(), Some(2));
        }
    }
}
