//! What is wrong with a puzzle that is not proper, and what would fix it: SAT under
//! assumptions ([`crate::backbone`]) in one incremental backend per puzzle, whose learnt
//! clauses serve every question. A puzzle with a solution is asked about in its reduced
//! encoding (a fraction of the empty grid's on large grids); one without, in the empty
//! grid's, its givens assumed.
//!
//! - **No solution**: a minimal set of givens that already admits none ([`minimal_core`]):
//!   without any one of them the rest have a solution. Singles and probing traced back to
//!   the givens ([`crate::generate::refute`]) find a first such set, on grids wider than
//!   [`EXACT_CORE_MAX_SIDE`] the answer (minimal for them, not shown minimal by SAT). A
//!   mistyped given is among them. The givens whose removal alone leaves a puzzle with a
//!   solution (those in every such minimal set) come with it, first those whose removal
//!   leaves exactly one solution: the suspects of a typo.
//! - **Several solutions**: the digits each cell takes over all solutions
//!   ([`crate::backbone::possible_literals`]; a cell with one is fixed in every
//!   solution), and givens taken from one solution that make it the only one, each of them
//!   needed: an implicit hitting set over the sets of cells other solutions differ in (see
//!   [`completion`]), towards each of the two solutions found first, the shorter kept
//!   (towards the first alone beyond [`EXACT_OPEN_CELLS`] open cells). The fewest from that
//!   solution while the exact search stays small, not always the fewest from any solution.
//!
//! Past the deadline, what is known by then comes back (`finished: false`) once the verdict
//! is known. A large grid without a solution is asked about in the empty grid's encoding,
//! which an 81×81 grid takes 3 GB to hold, and without the root probing that settles such
//! grids in their reduced encoding: `sudoku-81-1` with one wrong digit, which the
//! propagation does not refute, is still at its first deletion after 20 minutes. The
//! memory budget of the backend spec ([`BackendSpec::with_memory`]) is checked against the
//! estimate first.

use crate::backbone::{mark_possible_literals, minimal_core, solve_within};
use crate::backend::{BackendError, BackendSpec, SatBackend, SatOutcome};
use crate::encode::{Encoding, SudokuEncoding, VarMap, VarRef};
use crate::formula::{Cnf, Lit, Model, Var};
use crate::generate::refute::{propagation_core, Refuter};
use crate::grid::{check_grid, Cell, Digit, DigitSet, Geometry, Grid};
use crate::run::Deadline;
use crate::solve::sat::{give_structure, SatSolver, DEFAULT_ENCODING};
use crate::solve::Solver;
use crate::Error;

/// What [`diagnose`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Diagnosis {
    /// Exactly one solution.
    Unique {
        /// It.
        solution: Grid,
    },
    /// No solution, and these givens alone admit none; each is needed for that.
    NoSolution {
        /// The givens, in cell order.
        core: Vec<(Cell, Digit)>,
        /// The givens of `core` whose removal alone leaves a puzzle with a solution, in cell
        /// order (maybe none: then two or more givens are wrong).
        suspects: Vec<(Cell, Digit)>,
        /// The `suspects` whose removal leaves exactly one solution, in cell order.
        prime_suspects: Vec<(Cell, Digit)>,
        /// Whether each given of `core` is shown needed: without any one of them the rest
        /// have a solution. `false` when the time limit passed before that was shown, and
        /// on grids wider than [`EXACT_CORE_MAX_SIDE`] whose contradiction singles and
        /// probing find ([`crate::generate::refute`]): there `core` is minimal for them
        /// (without any one of its givens they no longer find a contradiction), as showing
        /// more asks for a solution of a nearly empty grid per given (an empty 81×81 grid:
        /// 68 s and 4.8 GB).
        minimal: bool,
        /// Whether the diagnosis is whole. `false` when the time limit passed first: `core`
        /// then still admits no solution (`minimal` says whether each given is needed;
        /// empty when not even such a set was found), and the suspects are those found by
        /// then.
        finished: bool,
    },
    /// Two or more solutions.
    Several {
        /// One of them: the one `completion` makes the only one.
        solution: Grid,
        /// Every empty cell whose digit differs between solutions, in cell order, with the
        /// digits its solutions put there (two or more).
        open: Vec<(Cell, DigitSet)>,
        /// Givens from `solution` that make it the only one, in cell order; without any
        /// one of them it is not.
        completion: Vec<(Cell, Digit)>,
        /// Whether `open` and `completion` are whole. `false` when the time limit passed
        /// first: `open` then holds the cells and digits seen in the solutions found by
        /// then (more may differ, with more digits), or `completion` is empty.
        finished: bool,
    },
}

impl Diagnosis {
    /// The diagnosis as JSON for programs: `verdict` (`unique`, `no solution`, `several`)
    /// and, without a solution, `finished`, `minimal` and the `core`, `suspects` and
    /// `prime_suspects` givens; with several, `finished`, the `open` cells (each with its
    /// `digits`) and the `completion` givens. Cells are `{"row", "column"}` objects,
    /// 1-based; a given adds `digit`.
    pub fn to_json(&self, geo: &Geometry) -> serde_json::Value {
        let givens = |list: &[(Cell, Digit)]| {
            serde_json::Value::from_iter(list.iter().map(|&g| geo.candidate_json(g)))
        };
        match self {
            Diagnosis::Unique { .. } => serde_json::json!({ "verdict": "unique" }),
            Diagnosis::NoSolution {
                core,
                suspects,
                prime_suspects,
                minimal,
                finished,
            } => serde_json::json!({
                "verdict": "no solution",
                "finished": finished,
                "minimal": minimal,
                "core": givens(core),
                "suspects": givens(suspects),
                "prime_suspects": givens(prime_suspects),
            }),
            Diagnosis::Several {
                open,
                completion,
                finished,
                ..
            } => {
                let open = open.iter().map(|&(cell, digits)| {
                    let mut value = geo.cell_json(cell);
                    value["digits"] = digits.iter().map(|d| d.get()).collect();
                    value
                });
                serde_json::json!({
                    "verdict": "several",
                    "finished": finished,
                    "open": serde_json::Value::from_iter(open),
                    "completion": givens(completion),
                })
            }
        }
    }
}

/// Diagnoses `puzzle` with a backend of `spec` (it must solve under assumptions, as cdcl
/// does), all its solves within `deadline`.
///
/// # Errors
/// [`Error::Backend`] when the backend fails, cannot take assumptions or the deadline
/// passes; [`Error::Decode`] if a model is not a solution (a backend bug);
/// [`Error::OverBudget`] or [`Error::Unsupported`] when an encoding it needs is estimated
/// above `spec`'s memory budget ([`BackendSpec::with_memory`]).
pub fn diagnose(
    puzzle: &Grid,
    spec: &BackendSpec,
    deadline: &Deadline,
) -> Result<Diagnosis, Error> {
    if check_grid(puzzle).is_valid() {
        if let Some(budget) = spec.memory {
            crate::encode::check_memory_budget(
                SudokuEncoding::new(DEFAULT_ENCODING.base, true),
                puzzle,
                budget,
            )?;
        }
        // The reduced encoding first: on large grids it is a fraction of the empty grid's
        // (81×81: 0.1 s against 11 s and 2.5 GB).
        let mut loaded = Loaded::new(spec, puzzle, true)?;
        if let SatOutcome::Sat(first) = solve_within(loaded.backend.as_mut(), &[], deadline)? {
            return solvable(&mut loaded, puzzle, &first, deadline);
        }
    }
    unsolvable(spec, puzzle, deadline)
}

/// The widest grids whose core is shown minimal by SAT in the empty grid's encoding: each
/// given's removal must give a solution of a nearly empty grid. A 49×49 puzzle with a typo
/// takes 11 s so (49 givens), a 64×64 one 149 s (59 givens, 2.5 s a solve), where the
/// singles found the same core in 16 ms. Wider grids keep the core singles and probing find,
/// when they find one ([`Diagnosis::NoSolution`]'s `minimal`).
pub const EXACT_CORE_MAX_SIDE: usize = 49;

/// A backend loaded with the empty grid's encoding of `puzzle`'s size, once its memory
/// estimate is found within `spec`'s budget.
fn load_empty(spec: &BackendSpec, puzzle: &Grid) -> Result<Loaded, Error> {
    let empty = Grid::empty(puzzle.box_size()).expect("the puzzle's box size is valid");
    let encoding = SudokuEncoding::new(DEFAULT_ENCODING.base, false);
    if let Some(budget) = spec.memory {
        let size = encoding.size(&empty);
        let needed = crate::encode::memory_estimate(size);
        if needed > budget {
            let n = puzzle.side();
            return Err(Error::Unsupported(format!(
                "no solution; naming the givens at fault asks about the empty {n}×{n} grid's \
                 {} encoding ({} clauses), about {}, over the memory budget of {}: raise \
                 --max-memory",
                encoding.name(),
                size.clauses,
                in_units(needed),
                in_units(budget)
            )));
        }
    }
    Loaded::new(spec, &empty, false)
}

/// Bytes in MiB, or in KiB below one MiB.
fn in_units(bytes: u64) -> String {
    if bytes < 1 << 20 {
        format!("{} KiB", bytes.div_ceil(1 << 10))
    } else {
        format!("{} MiB", bytes.div_ceil(1 << 20))
    }
}

/// A backend holding one encoding of a grid, and the map to read its models.
struct Loaded {
    backend: Box<dyn SatBackend>,
    map: VarMap,
}

impl Loaded {
    fn new(spec: &BackendSpec, grid: &Grid, reduced: bool) -> Result<Loaded, Error> {
        let mut backend = spec.create()?;
        if !backend.takes_assumptions() {
            return Err(BackendError::Unsupported {
                solver: backend.name(),
                what: "solve under assumptions, which the diagnosis needs".to_string(),
            }
            .into());
        }
        let encoding = SudokuEncoding::new(DEFAULT_ENCODING.base, reduced);
        let mut cnf = Cnf::new();
        let map = encoding.encode_into(grid, &mut cnf);
        cnf.set_num_vars(map.num_vars());
        backend.add_formula(&mut cnf);
        give_structure(backend.as_mut(), &map, encoding, spec.propagate);
        Ok(Loaded { backend, map })
    }

    /// The literal of `digit` in `cell`, `None` when the encoding fixed it.
    fn try_lit(&self, cell: Cell, digit: Digit) -> Option<Lit> {
        match self.map.var(cell, digit) {
            VarRef::Var(var) => Some(var.positive()),
            VarRef::True | VarRef::False => None,
        }
    }

    /// The literal of `digit` in `cell`, which the encoding did not fix: any digit of the
    /// empty grid's encoding, or a digit a solution puts in an empty cell.
    fn lit(&self, cell: Cell, digit: Digit) -> Lit {
        self.try_lit(cell, digit)
            .unwrap_or_else(|| unreachable!("({cell:?}, {digit:?}) is fixed"))
    }

    fn solve(&mut self, assumptions: &[Lit], deadline: &Deadline) -> Result<SatOutcome, Error> {
        Ok(solve_within(self.backend.as_mut(), assumptions, deadline)?)
    }

    /// Adds "not `solution` on `cells`" behind a fresh activation literal, which it
    /// returns: assumed, it asks for another solution; its negation retires the clause.
    fn block(&mut self, solution: &Grid, cells: impl Iterator<Item = Cell>) -> Lit {
        // Past every variable the backend has, selectors of other questions included.
        let other = Var::from_index(self.backend.num_vars()).positive();
        self.backend.reserve_vars(other.var().index() + 1);
        let mut blocking = vec![!other];
        blocking.extend(cells.map(|c| !self.lit(c, digit_at(solution, c))));
        self.backend.add_clause(&blocking);
        other
    }
}

/// The empty cells of `grid`.
fn empty_cells(grid: &Grid) -> impl Iterator<Item = Cell> + '_ {
    grid.geometry().cells().filter(|&c| grid.get(c).is_none())
}

/// The diagnosis of a puzzle with a solution (`first`), `loaded` with its reduced encoding.
fn solvable(
    loaded: &mut Loaded,
    puzzle: &Grid,
    first: &Model,
    deadline: &Deadline,
) -> Result<Diagnosis, Error> {
    let solution = loaded.map.decode(first)?;
    // Kept behind its activation literal, so that later questions can still reach it.
    let other = loaded.block(&solution, empty_cells(puzzle));
    let second = match loaded.solve(&[other], deadline)? {
        SatOutcome::Unsat => return Ok(Diagnosis::Unique { solution }),
        SatOutcome::Sat(model) => model,
    };
    let second_solution = loaded.map.decode(&second)?;
    // Past the time limit, what is known so far: a hard large grid (`sudoku-64-1`) asks a
    // long search of each digit still open.
    let unfinished = |solution: Grid, open: Vec<(Cell, DigitSet)>| Diagnosis::Several {
        solution,
        open,
        completion: Vec::new(),
        finished: false,
    };
    let (open, finished) = open_cells(loaded, puzzle, [first.clone(), second], deadline)?;
    if !finished {
        return Ok(unfinished(solution, open));
    }
    // Completed towards each of the two solutions known, the fewer givens kept (60
    // generated puzzles short of 1–3 givens: 2.73 added on average, against 2.82 towards
    // the first alone).
    let towards_first = match completion(loaded, &solution, &open, other, deadline) {
        Err(e) if e.is_timeout() => return Ok(unfinished(solution, open)),
        other => other?,
    };
    if open.len() > EXACT_OPEN_CELLS {
        // Greedy completions differ little from one solution to another and cost seconds
        // on a large grid: a 25×25 puzzle short of 40 givens took 7.9 s with both and
        // takes 2.5 s with one, 46 givens either way.
        return Ok(Diagnosis::Several {
            solution,
            open,
            completion: towards_first,
            finished: true,
        });
    }
    let other_second = loaded.block(&second_solution, empty_cells(puzzle));
    let (solution, completion) =
        match completion(loaded, &second_solution, &open, other_second, deadline) {
            Ok(towards_second) if towards_second.len() < towards_first.len() => {
                (second_solution, towards_second)
            }
            // The first completion stands on its own.
            Err(e) if !e.is_timeout() => return Err(e),
            _ => (solution, towards_first),
        };
    Ok(Diagnosis::Several {
        solution,
        open,
        completion,
        finished: true,
    })
}

/// The diagnosis of a puzzle without solution. Past the time limit, what is known by then
/// (`finished: false`): an 81×81 grid that singles and probing do not refute asks hard
/// searches under thousands of assumed givens.
fn unsolvable(spec: &BackendSpec, puzzle: &Grid, deadline: &Deadline) -> Result<Diagnosis, Error> {
    let unfinished = |core: Vec<(Cell, Digit)>, minimal, suspects, prime_suspects| {
        Ok(Diagnosis::NoSolution {
            core,
            suspects,
            prime_suspects,
            minimal,
            finished: false,
        })
    };
    // Singles and probing first: a typo in a puzzle they solve is refuted in milliseconds,
    // and their core is a far smaller start for SAT than the failed assumptions of a first
    // refutation (a 64×64 puzzle with a typo: 417 s and 111 givens before, 149 s and 59).
    // (Within the memory budget: the refuter takes 8n³ bytes, 512 MB on 400×400; past it
    // the SAT route below refuses with its own, larger estimate.)
    let propagated = match spec.memory {
        Some(budget) if Refuter::memory_estimate(puzzle.side()) > budget => None,
        _ => propagation_core(puzzle, deadline),
    };
    let (core, minimal) = match propagated {
        Some((core, false)) => return unfinished(core, false, Vec::new(), Vec::new()),
        Some((core, true)) if puzzle.side() > EXACT_CORE_MAX_SIDE => (core, false),
        _ => {
            let start = propagated.map(|(core, _)| core);
            match exact_core(&mut load_empty(spec, puzzle)?, puzzle, start, deadline)? {
                (core, true) => (core, true),
                (partial, false) => return unfinished(partial, false, Vec::new(), Vec::new()),
            }
        }
    };
    let mut suspects = Vec::new();
    let mut prime_suspects = Vec::new();
    // Each suspect is a puzzle of its own, asked in its reduced encoding with root
    // probing: a 25×25 puzzle with a typo (114 givens to try) spent 10.7 of its 13.6 s
    // here under assumptions in the empty grid's encoding, and takes 3.4 s in all so.
    let mut counter = SatSolver::new(DEFAULT_ENCODING, spec.clone());
    for &(cell, digit) in &core {
        match suspect(&mut counter, puzzle, cell, deadline) {
            Ok(None) => {}
            Ok(Some(prime)) => {
                suspects.push((cell, digit));
                if prime {
                    prime_suspects.push((cell, digit));
                }
            }
            Err(e) if e.is_timeout() => return unfinished(core, minimal, suspects, prime_suspects),
            Err(e) => return Err(e),
        }
    }
    Ok(Diagnosis::NoSolution {
        core,
        suspects,
        prime_suspects,
        minimal,
        finished: true,
    })
}

/// A minimal set of `puzzle`'s givens without solution (each needed), in cell order, asked
/// under assumptions in the empty grid's encoding `loaded`, from the `propagated` core when
/// there is one, else from the givens the puzzle's refutation fails on; with `true`. When
/// the time limit passed first, the smallest set known to admit none (empty when none is)
/// with `false`.
fn exact_core(
    loaded: &mut Loaded,
    puzzle: &Grid,
    propagated: Option<Vec<(Cell, Digit)>>,
    deadline: &Deadline,
) -> Result<(Vec<(Cell, Digit)>, bool), Error> {
    let in_cell_order = |loaded: &Loaded, set: &[Lit]| -> Vec<(Cell, Digit)> {
        puzzle
            .givens()
            .filter(|&(c, d)| set.contains(&loaded.lit(c, d)))
            .collect()
    };
    let start: Vec<Lit> = match propagated {
        Some(core) => core.iter().map(|&(c, d)| loaded.lit(c, d)).collect(),
        None => {
            let givens: Vec<Lit> = puzzle.givens().map(|(c, d)| loaded.lit(c, d)).collect();
            match loaded.solve(&givens, deadline) {
                Ok(SatOutcome::Unsat) => {}
                Ok(SatOutcome::Sat(model)) => {
                    // The reduced encoding said otherwise: one of the two paths is wrong.
                    loaded.map.decode_for(&model, puzzle)?;
                    unreachable!("a puzzle without solution has one: {puzzle:?}");
                }
                Err(e) if e.is_timeout() => return Ok((Vec::new(), false)),
                Err(e) => return Err(e),
            }
            // The failed assumptions: usually far fewer than the givens.
            let failed = loaded.backend.failed_assumptions();
            givens.into_iter().filter(|l| failed.contains(l)).collect()
        }
    };
    match minimal_core(loaded.backend.as_mut(), &start, deadline) {
        Ok(core) => {
            let core = core.expect("a set propagation or a solve refuted is refuted again");
            Ok((in_cell_order(loaded, &core), true))
        }
        Err(BackendError::Timeout { .. }) => Ok((in_cell_order(loaded, &start), false)),
        Err(e) => Err(e.into()),
    }
}

/// Whether the puzzle without its given in `cell` has a solution (`None`: no), and if so
/// whether exactly one.
fn suspect(
    counter: &mut SatSolver,
    puzzle: &Grid,
    cell: Cell,
    deadline: &Deadline,
) -> Result<Option<bool>, Error> {
    let mut without = puzzle.clone();
    without.set(cell, None);
    if deadline.expired() {
        return Err(deadline.timed_out(&counter.name()).into());
    }
    counter.set_time_limit(deadline.remaining());
    Ok(match counter.solutions(&without, 2)?.len() {
        0 => None,
        found => Some(found == 1),
    })
}

fn digit_at(grid: &Grid, cell: Cell) -> Digit {
    grid.get(cell).expect("a solution is full")
}

/// The empty cells with two or more digits over all solutions (two of them `known`), and
/// those digits; `false` with it when the time limit passed first: then the cells and
/// digits seen in the models found by then (more may differ, with more digits).
fn open_cells(
    loaded: &mut Loaded,
    puzzle: &Grid,
    known: [Model; 2],
    deadline: &Deadline,
) -> Result<(Vec<(Cell, DigitSet)>, bool), Error> {
    let mut pairs = Vec::new();
    let mut candidates = Vec::new();
    for cell in empty_cells(puzzle) {
        for digit in puzzle.candidates(cell).iter() {
            if let Some(lit) = loaded.try_lit(cell, digit) {
                pairs.push((cell, digit));
                candidates.push(lit);
            }
        }
    }
    let mut possible = vec![false; candidates.len()];
    let finished = match mark_possible_literals(
        loaded.backend.as_mut(),
        &[],
        &candidates,
        &known,
        deadline,
        &mut possible,
    ) {
        Ok(satisfiable) => {
            assert!(satisfiable, "the puzzle has solutions");
            true
        }
        Err(BackendError::Timeout { .. }) => false,
        Err(e) => return Err(e.into()),
    };
    let mut open: Vec<(Cell, DigitSet)> = Vec::new();
    for (&(cell, digit), possible) in pairs.iter().zip(possible) {
        if !possible {
            continue;
        }
        match open.last_mut() {
            Some((last, digits)) if *last == cell => {
                digits.insert(digit);
            }
            _ => {
                let mut digits = DigitSet::EMPTY;
                digits.insert(digit);
                open.push((cell, digits));
            }
        }
    }
    open.retain(|(_, digits)| digits.len() > 1);
    Ok((open, finished))
}

/// Givens from `solution` that leave it the only solution: assuming `other` asks for
/// another solution, which exists until they are added.
///
/// An implicit hitting set loop (as MaxHS; Davies & Bacchus 2011, "Solving MAXSAT by
/// solving a sequence of simpler SAT instances", CP): each other solution met gives the
/// cells where it differs from ours, shrunk to a minimal such set (an unavoidable set:
/// every completion gives one of its cells); the givens tried are a smallest set of cells
/// hitting all sets met so far, until no other solution is left. The hitting sets are
/// exact while their search stays within [`HITTING_SET_NODES`]; after that (or from the
/// start, unshrunk, with more than [`EXACT_OPEN_CELLS`] open cells) the givens only grow, by
/// one cell of each new set; a last pass drops any given the others make unneeded.
fn completion(
    loaded: &mut Loaded,
    solution: &Grid,
    open: &[(Cell, DigitSet)],
    other: Lit,
    deadline: &Deadline,
) -> Result<Vec<(Cell, Digit)>, Error> {
    let given = |loaded: &Loaded, cell: Cell| loaded.lit(cell, digit_at(solution, cell));
    let open: Vec<Cell> = open.iter().map(|&(cell, _)| cell).collect();
    let mut sets: Vec<Vec<Cell>> = Vec::new();
    // Many open cells: greedy and growing from the start, each set as found.
    let exact = open.len() <= EXACT_OPEN_CELLS;
    let mut smallest = exact.then_some(0);
    let mut chosen = Vec::new();
    let added = loop {
        if smallest.is_some() {
            chosen = hitting_set(&sets, &mut smallest);
        }
        let mut trial = vec![other];
        trial.extend(chosen.iter().map(|&c| given(loaded, c)));
        let model = match loaded.solve(&trial, deadline)? {
            SatOutcome::Unsat => break chosen,
            SatOutcome::Sat(model) => model,
        };
        // Shrink the cells where it differs: a cell goes when another solution differs
        // from ours only within the rest (every other open cell held at ours).
        let mut rest: Vec<Cell> = open
            .iter()
            .copied()
            .filter(|&c| !model.satisfies(given(loaded, c)))
            .collect();
        let mut needed: Vec<Cell> = Vec::new();
        if !exact {
            std::mem::swap(&mut needed, &mut rest);
        }
        while let Some(cell) = rest.pop() {
            let mut trial = vec![other];
            trial.extend(
                open.iter()
                    .filter(|c| !needed.contains(c) && !rest.contains(c))
                    .map(|&c| given(loaded, c)),
            );
            match loaded.solve(&trial, deadline)? {
                // It differs at every needed cell (else one was not), and within `rest`.
                SatOutcome::Sat(model) => rest.retain(|&c| !model.satisfies(given(loaded, c))),
                SatOutcome::Unsat => needed.push(cell),
            }
        }
        if smallest.is_none() {
            // Greedy from here on, and growing only: one cell of the new set, the one in
            // the most sets met (an empty grid meets thousands of sets otherwise).
            let best = *needed
                .iter()
                .max_by_key(|&&cell| {
                    let meets = sets.iter().filter(|set| set.contains(&cell)).count();
                    (meets, std::cmp::Reverse(cell))
                })
                .expect("another solution differs from ours somewhere");
            chosen.push(best);
        }
        sets.push(needed);
    };
    // Minimal by deletion (a greedy hitting set may hold a given the others make unneeded),
    // with clause-set refinement: each UNSAT answer drops every given it did not use.
    let mut assumed = vec![other];
    assumed.extend(added.iter().map(|&c| given(loaded, c)));
    // The loop ended on UNSAT under exactly these, so the core is never `None`.
    let core = minimal_core(loaded.backend.as_mut(), &assumed, deadline)?.unwrap_or(assumed);
    let mut kept: Vec<Cell> = added
        .into_iter()
        .filter(|&c| core.contains(&given(loaded, c)))
        .collect();
    kept.sort();
    Ok(kept
        .into_iter()
        .map(|c| (c, digit_at(solution, c)))
        .collect())
}

/// Open cells up to which the sets are shrunk and the hitting sets start exact: a 16×16
/// puzzle short of 40 givens (180 open cells) takes 0.4 s; a 25×25 one (411) took more
/// than 5 minutes, an UNSAT solve per cell of each set, and takes 1 s without.
const EXACT_OPEN_CELLS: usize = 256;

/// Search nodes one exact hitting set may take before the greedy one is used.
const HITTING_SET_NODES: u32 = 20_000;

/// A set of cells meeting every one of `sets`: a smallest one when the search finds it
/// within [`HITTING_SET_NODES`] (sizes from `*smallest` up, which it raises: the sets only
/// grow in number), else greedily the cell in the most sets not yet met, until all are.
/// Once the search has run out, `*smallest` is `None` and later calls go greedy at once
/// (an empty grid's completion meets hundreds of sets).
fn hitting_set(sets: &[Vec<Cell>], smallest: &mut Option<usize>) -> Vec<Cell> {
    let mut budget = HITTING_SET_NODES;
    let mut chosen = Vec::new();
    if let Some(from) = *smallest {
        *smallest = None;
        for size in from.. {
            match hits_within(sets, size, &mut chosen, &mut budget) {
                Some(true) => {
                    *smallest = Some(size);
                    return chosen;
                }
                Some(false) => {}
                None => break,
            }
        }
    }
    chosen.clear();
    loop {
        let unmet: Vec<&Vec<Cell>> = sets
            .iter()
            .filter(|set| !set.iter().any(|c| chosen.contains(c)))
            .collect();
        let Some(best) = unmet
            .iter()
            .flat_map(|set| set.iter())
            .max_by_key(|&&cell| {
                let meets = unmet.iter().filter(|set| set.contains(&cell)).count();
                (meets, std::cmp::Reverse(cell))
            })
        else {
            return chosen;
        };
        chosen.push(*best);
    }
}

/// Whether `chosen` extends by at most `size` cells to meet every set (branching on the
/// cells of the smallest set not met); `None` when the node budget runs out.
fn hits_within(
    sets: &[Vec<Cell>],
    size: usize,
    chosen: &mut Vec<Cell>,
    budget: &mut u32,
) -> Option<bool> {
    *budget = budget.checked_sub(1)?;
    let unmet = sets
        .iter()
        .filter(|set| !set.iter().any(|c| chosen.contains(c)))
        .min_by_key(|set| set.len());
    let Some(unmet) = unmet else {
        return Some(true);
    };
    if size == 0 {
        return Some(false);
    }
    for &cell in unmet {
        chosen.push(cell);
        if hits_within(sets, size - 1, chosen, budget)? {
            return Some(true);
        }
        chosen.pop();
    }
    Some(false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::BackendKind;
    use crate::generate::{bitmask_count, generated_for_tests as generated, Count};
    use crate::solve::sat::SatSolver;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    fn cdcl() -> BackendSpec {
        BackendSpec::new(BackendKind::Cdcl)
    }

    /// Every solution, by another backend (the DPLL) than the diagnosis's.
    fn all_solutions(puzzle: &Grid) -> Vec<Grid> {
        SatSolver::new(DEFAULT_ENCODING, BackendSpec::new(BackendKind::Dpll))
            .solutions(puzzle, 100_000)
            .unwrap()
    }

    fn at_most_two(puzzle: &Grid) -> Option<Count> {
        bitmask_count(puzzle, 2, u64::MAX)
    }

    /// Checks a `Several` diagnosis against every solution of `puzzle`.
    fn check_several(puzzle: &Grid, diagnosis: &Diagnosis) {
        let Diagnosis::Several {
            solution,
            open,
            completion,
            finished: true,
        } = diagnosis
        else {
            panic!("several solutions: {diagnosis:?}")
        };
        let all = all_solutions(puzzle);
        assert!(all.len() >= 2);
        assert!(all.contains(solution));
        // Open cells: exactly those where solutions differ, with exactly their digits.
        let mut expected = Vec::new();
        for cell in puzzle.geometry().cells() {
            let mut digits = DigitSet::EMPTY;
            for s in &all {
                digits.insert(s.get(cell).unwrap());
            }
            if digits.len() > 1 {
                expected.push((cell, digits));
            }
        }
        assert_eq!(open, &expected);
        // The completion keeps the solution, makes it unique, and each given is needed.
        let mut completed = puzzle.clone();
        for &(cell, digit) in completion {
            assert_eq!(solution.get(cell), Some(digit));
            completed.set(cell, Some(digit));
        }
        assert_eq!(all_solutions(&completed), vec![solution.clone()]);
        for &(cell, _) in completion {
            let mut without = completed.clone();
            without.set(cell, None);
            assert_eq!(
                at_most_two(&without),
                Some(Count::Exact(2)),
                "{cell:?} is not needed"
            );
        }
    }

    #[test]
    fn a_unique_puzzle_is_diagnosed_with_its_solution() {
        let (puzzle, solution) = generated(3);
        assert_eq!(
            diagnose(&puzzle, &cdcl(), &Deadline::NONE).unwrap(),
            Diagnosis::Unique { solution }
        );
    }

    #[test]
    fn a_puzzle_without_solution_names_a_minimal_set_of_givens() {
        for seed in 0..6 {
            let (puzzle, solution) = generated(seed);
            // A wrong digit in an empty cell that clashes with no given: no solution.
            let (wrong, (cell, digit)) = crate::generate::with_a_typo_for_tests(&puzzle, &solution);
            let Diagnosis::NoSolution {
                core,
                suspects,
                prime_suspects,
                minimal: true,
                finished: true,
            } = diagnose(&wrong, &cdcl(), &Deadline::NONE).unwrap()
            else {
                panic!("no solution, finished")
            };
            assert!(core.contains(&(cell, digit)), "the wrong given is needed");
            // The wrong given is a prime suspect (without it the puzzle is the unique one it
            // was); exactly the suspects leave a solvable puzzle, exactly the prime ones a
            // unique puzzle.
            assert!(prime_suspects.contains(&(cell, digit)));
            for &(c, d) in &core {
                let mut without = wrong.clone();
                without.set(c, None);
                let count = bitmask_count(&without, 2, u64::MAX);
                assert_eq!(suspects.contains(&(c, d)), count != Some(Count::Exact(0)));
                assert_eq!(
                    prime_suspects.contains(&(c, d)),
                    count == Some(Count::Exact(1))
                );
            }
            let only = |givens: &[(Cell, Digit)]| crate::generate::grid_of_for_tests(3, givens);
            assert_eq!(
                bitmask_count(&only(&core), 1, u64::MAX),
                Some(Count::Exact(0))
            );
            for i in 0..core.len() {
                let mut rest = core.clone();
                rest.remove(i);
                assert_eq!(
                    bitmask_count(&only(&rest), 1, u64::MAX),
                    Some(Count::Exact(1))
                );
            }
        }
        // Two equal digits in a row: those two givens.
        let clash: Grid = "1..1............".parse().unwrap();
        assert_eq!(
            diagnose(&clash, &cdcl(), &Deadline::NONE).unwrap(),
            Diagnosis::NoSolution {
                core: vec![(Cell(0), Digit(1)), (Cell(3), Digit(1))],
                suspects: vec![(Cell(0), Digit(1)), (Cell(3), Digit(1))],
                prime_suspects: vec![],
                minimal: true,
                finished: true,
            }
        );
        // Past the time limit before the first question: the givens propagation refutes,
        // not yet shown minimal, and no suspect tried.
        let passed = Deadline::after(Some(std::time::Duration::ZERO));
        assert_eq!(
            unsolvable(&cdcl(), &clash, &passed).unwrap(),
            Diagnosis::NoSolution {
                core: vec![(Cell(0), Digit(1)), (Cell(3), Digit(1))],
                suspects: vec![],
                prime_suspects: vec![],
                minimal: false,
                finished: false,
            }
        );
    }

    #[test]
    fn a_wide_grid_without_solution_keeps_the_core_propagation_finds() {
        // 64×64: a full pattern grid, a quarter of its cells emptied, one of them given a
        // digit its row, column and box allow but the grid does not.
        let geo = Geometry::of(8).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(64);
        let solution = crate::generate::pattern_fill(geo, &mut rng);
        let mut puzzle = solution.clone();
        for cell in geo.cells() {
            if rand::Rng::gen_bool(&mut rng, 0.25) {
                puzzle.set(cell, None);
            }
        }
        let (puzzle, (cell, digit)) = crate::generate::with_a_typo_for_tests(&puzzle, &solution);
        let Diagnosis::NoSolution {
            core,
            suspects,
            minimal: false,
            finished: true,
            ..
        } = diagnose(&puzzle, &cdcl(), &Deadline::NONE).unwrap()
        else {
            panic!("no solution, not shown minimal")
        };
        assert!(puzzle.side() > EXACT_CORE_MAX_SIDE);
        assert!(core.contains(&(cell, digit)));
        assert!(
            core.len() < puzzle.num_givens() / 10,
            "{} givens",
            core.len()
        );
        // Without the wrong digit the full grid is a solution again (here one more given
        // can go to leave a solution).
        assert!(suspects.contains(&(cell, digit)));
        assert_eq!(suspects.len(), 2);
        // The core alone has no solution: propagation refutes it again.
        let mut refuter = crate::generate::refute::Refuter::new(geo);
        assert!(refuter.refute(&core).is_some());
        // Under a budget that holds the puzzle's reduced encoding (1.1 MB) but not the
        // refuter (2.1 MB), the diagnosis is refused, by the SAT route's estimate, rather
        // than taking the memory.
        assert_eq!(
            Refuter::memory_estimate(64),
            8 * 64 * 64 * 64 + 32 * 64 * 64
        );
        let tight = cdcl().with_memory(Some(3 << 19));
        match diagnose(&puzzle, &tight, &Deadline::NONE) {
            Err(Error::Unsupported(message)) => {
                assert!(message.contains("empty 64×64 grid's"), "{message}");
                assert!(message.contains("over the memory budget"), "{message}");
            }
            other => panic!("refused, got {other:?}"),
        }
    }

    #[test]
    fn several_solutions_are_told_apart_and_completed() {
        for seed in 0..4 {
            let (puzzle, _) = generated(seed);
            // A minimal puzzle with one or two givens taken away.
            let mut loose = puzzle.clone();
            for (cell, _) in puzzle.givens().take(1 + seed as usize % 2) {
                loose.set(cell, None);
            }
            let diagnosis = diagnose(&loose, &cdcl(), &Deadline::NONE).unwrap();
            check_several(&loose, &diagnosis);
        }
        // The generic backbone of the puzzle's plain encoding says the same: a (cell, digit)
        // variable is free exactly when the cell is open with that digit among its own.
        let (puzzle, _) = generated(7);
        let mut loose = puzzle.clone();
        for (cell, _) in puzzle.givens().take(2) {
            loose.set(cell, None);
        }
        let Diagnosis::Several { open, .. } = diagnose(&loose, &cdcl(), &Deadline::NONE).unwrap()
        else {
            panic!("several")
        };
        let mut cnf = Cnf::new();
        let map = SudokuEncoding::new(DEFAULT_ENCODING.base, false).encode_into(&loose, &mut cnf);
        let mut backend = cdcl().create().unwrap();
        backend.add_formula(&mut cnf);
        let backbone =
            crate::backbone::backbone(backend.as_mut(), map.num_vars(), &[], &[], &Deadline::NONE)
                .unwrap()
                .unwrap();
        let free = map.num_vars() - backbone.len();
        let open_pairs: usize = open.iter().map(|(_, digits)| digits.len()).sum();
        assert_eq!(free, open_pairs);
        for (cell, digits) in &open {
            for digit in digits.iter() {
                let VarRef::Var(var) = map.var(*cell, digit) else {
                    panic!("plain encoding")
                };
                assert!(!backbone.iter().any(|l| l.var() == var));
            }
        }
        // The empty 4×4 grid: every cell open with every digit.
        let empty = Grid::empty(2).unwrap();
        let diagnosis = diagnose(&empty, &cdcl(), &Deadline::NONE).unwrap();
        let Diagnosis::Several { open, .. } = &diagnosis else {
            panic!("several")
        };
        assert_eq!(open.len(), 16);
        assert!(open.iter().all(|(_, digits)| digits.len() == 4));
        check_several(&empty, &diagnosis);
    }

    /// Every solution of a 4×4 grid, by brute force over the 288 full grids.
    fn brute_solutions(puzzle: &Grid, all: &[Grid]) -> Vec<Grid> {
        all.iter()
            .filter(|full| puzzle.givens().all(|(c, d)| full.get(c) == Some(d)))
            .cloned()
            .collect()
    }

    #[test]
    fn random_4x4_grids_are_diagnosed_as_brute_force_says() {
        let all = all_solutions(&Grid::empty(2).unwrap());
        assert_eq!(all.len(), 288);
        let mut rng = ChaCha8Rng::seed_from_u64(26);
        let mut seen = [0usize; 3];
        for _ in 0..300 {
            // Up to 8 random givens that break no rule.
            let mut puzzle = Grid::empty(2).unwrap();
            for _ in 0..rand::Rng::gen_range(&mut rng, 1..=8) {
                let cell = Cell(rand::Rng::gen_range(&mut rng, 0..16));
                let digits: Vec<Digit> = puzzle.candidates(cell).iter().collect();
                if puzzle.get(cell).is_none() && !digits.is_empty() {
                    puzzle.set(
                        cell,
                        Some(digits[rand::Rng::gen_range(&mut rng, 0..digits.len())]),
                    );
                }
            }
            let solutions = brute_solutions(&puzzle, &all);
            let diagnosis = diagnose(&puzzle, &cdcl(), &Deadline::NONE).unwrap();
            match &diagnosis {
                Diagnosis::Unique { solution } => {
                    seen[0] += 1;
                    assert_eq!(&solutions, std::slice::from_ref(solution));
                }
                Diagnosis::NoSolution {
                    core,
                    suspects,
                    prime_suspects,
                    minimal,
                    finished,
                } => {
                    seen[1] += 1;
                    assert!(*finished && *minimal);
                    assert!(solutions.is_empty());
                    let mut only = Grid::empty(2).unwrap();
                    for &(c, d) in core {
                        assert_eq!(puzzle.get(c), Some(d));
                        only.set(c, Some(d));
                    }
                    assert!(brute_solutions(&only, &all).is_empty());
                    for &(c, _) in core {
                        let mut rest = only.clone();
                        rest.set(c, None);
                        assert!(!brute_solutions(&rest, &all).is_empty(), "{c:?} not needed");
                    }
                    for (c, d) in puzzle.givens() {
                        let mut without = puzzle.clone();
                        without.set(c, None);
                        let left = brute_solutions(&without, &all).len();
                        assert_eq!(suspects.contains(&(c, d)), left > 0);
                        assert_eq!(prime_suspects.contains(&(c, d)), left == 1);
                    }
                }
                Diagnosis::Several { .. } => {
                    seen[2] += 1;
                    check_several(&puzzle, &diagnosis);
                }
            }
        }
        assert!(
            seen.iter().all(|&k| k >= 20),
            "unique / none / several: {seen:?}"
        );
    }

    #[test]
    fn hitting_sets_meet_every_set_and_are_smallest_while_exact() {
        let sets: Vec<Vec<Cell>> = [&[1u32, 2][..], &[2, 3], &[3, 4], &[5, 1], &[6]]
            .iter()
            .map(|s| s.iter().map(|&c| Cell(c)).collect())
            .collect();
        let meets_all = |chosen: &[Cell]| sets.iter().all(|s| s.iter().any(|c| chosen.contains(c)));
        // Exact: {6} plus two of 1…5 ({2, 3} misses {5, 1}; {1, 3} meets all four).
        let mut smallest = Some(0);
        let chosen = hitting_set(&sets, &mut smallest);
        assert!(meets_all(&chosen), "{chosen:?}");
        assert_eq!(chosen.len(), 3);
        assert_eq!(smallest, Some(3));
        // Greedy once the search has run out: still meets every set.
        let mut gave_out = None;
        let chosen = hitting_set(&sets, &mut gave_out);
        assert!(meets_all(&chosen), "{chosen:?}");
        assert_eq!(gave_out, None);
        // No sets: nothing to choose.
        assert!(hitting_set(&[], &mut Some(0)).is_empty());
    }

    #[test]
    fn a_backend_without_assumptions_is_refused() {
        let (puzzle, _) = generated(1);
        let err = diagnose(
            &puzzle,
            &BackendSpec::new(BackendKind::Dpll),
            &Deadline::NONE,
        );
        assert!(matches!(
            err,
            Err(Error::Backend(BackendError::Unsupported { .. }))
        ));
    }
}
