//! The entries of a study as `--solvers` and `--encodings` name them: the lists parsed
//! ([`parse_solvers`], [`parse_encodings`], [`parse_amo_families`]), the defaults, and the
//! SAT backends crossed with the encodings into [`SolverSpec`]s ([`entries_with`]), each
//! labelled by [`SolverSpec::label`].

use crate::backend::{BackendKind, BackendLabelError, BackendSpec, RootMode};
use crate::encode::{AmoFamily, SudokuEncoding};
use crate::solve::sat::DEFAULT_ENCODING;
use crate::solve::{ClassicKind, EntryOptions, SolverOptions, SolverSpec};

use super::CompareError;

/// A solver as `--solvers` names it, before SAT backends are crossed with the encodings
/// into [`SolverSpec`]s ([`entries`]), with the options of its bracket
/// ([`EntryOptions::split`]), applied over the study's flags.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolverItem {
    /// A SAT backend (crossed with every encoding, unless its options name one).
    Sat(BackendSpec, EntryOptions),
    /// A classic solver.
    Classic(ClassicKind, EntryOptions),
}

impl SolverItem {
    /// A SAT backend with no option of its own.
    pub fn sat(backend: BackendSpec) -> SolverItem {
        SolverItem::Sat(backend, EntryOptions::default())
    }

    /// A classic solver with no option of its own.
    pub fn classic(kind: ClassicKind) -> SolverItem {
        SolverItem::Classic(kind, EntryOptions::default())
    }

    /// The options of the item's bracket.
    pub fn options(&self) -> &EntryOptions {
        match self {
            SolverItem::Sat(_, options) | SolverItem::Classic(_, options) => options,
        }
    }
}

/// Parses a comma-separated `--solvers` list: `dpll`, `varisat`, `splr`, `minisat` (or
/// `minisat:CMD`), `external:CMD`, any [`ClassicKind`], and the groups `embedded`
/// (the in-process backends this build has: cdcl, dpll, lookahead, varisat, splr, and
/// cadical and kissat with their features), `classic` (every classic solver but plain `backtrack`,
/// which is `backtrack-mrv` under compare's defaults) and `all` (both groups). Repeated
/// names are kept once. Commands cannot contain commas. A backend or solver may carry
/// options in a bracket after its name ([`EntryOptions`]): `cdcl[propagate=grid]`,
/// `external[seed=3]:cadical -q`, `hill[seed=7]`; the commas inside a bracket do not split
/// the list.
///
/// # Errors
/// [`CompareError::UnknownSolver`] naming the first unknown item,
/// [`CompareError::MissingCommand`] for `external` without a command,
/// [`CompareError::EntryOption`] for a bracket that cannot be read or an option the solver
/// has no use for, [`CompareError::Invalid`] for an empty list.
pub fn parse_solvers(list: &str) -> Result<Vec<SolverItem>, CompareError> {
    parse_list(list, "--solvers lists no solver", parse_solver_item)
}

/// The items of a comma-separated list: split at the commas outside brackets, trimmed,
/// empty ones dropped.
fn split_items(list: &str) -> Vec<&str> {
    let mut items = Vec::new();
    let (mut depth, mut start) = (0usize, 0);
    for (i, c) in list.char_indices() {
        match c {
            '[' => depth += 1,
            ']' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                items.push(&list[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    items.push(&list[start..]);
    items
        .into_iter()
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect()
}

/// Splits a comma-separated list, expands each item with `parse_item`, keeps the first of
/// repeated values, and refuses an empty result with `empty`.
fn parse_list<T: PartialEq>(
    list: &str,
    empty: &str,
    parse_item: impl Fn(&str) -> Result<Vec<T>, CompareError>,
) -> Result<Vec<T>, CompareError> {
    let mut values: Vec<T> = Vec::new();
    for item in split_items(list) {
        for value in parse_item(item)? {
            if !values.contains(&value) {
                values.push(value);
            }
        }
    }
    if values.is_empty() {
        return Err(CompareError::Invalid(empty.to_string()));
    }
    Ok(values)
}

fn parse_solver_item(item: &str) -> Result<Vec<SolverItem>, CompareError> {
    let embedded = || {
        BackendKind::ALL
            .into_iter()
            .filter(|k| k.is_embedded() && k.is_built())
            .map(|k| SolverItem::sat(BackendSpec::new(k)))
            .collect::<Vec<_>>()
    };
    let classic = || {
        ClassicKind::ALL
            .into_iter()
            .filter(|&kind| kind != ClassicKind::Backtrack)
            .map(SolverItem::classic)
            .collect::<Vec<_>>()
    };
    match item {
        "embedded" => return Ok(embedded()),
        "classic" => return Ok(classic()),
        "all" => return Ok([embedded(), classic()].concat()),
        _ => {}
    }
    let bad_option = |source| CompareError::EntryOption {
        item: item.to_string(),
        source,
    };
    let (name, options) = EntryOptions::split(item).map_err(bad_option)?;
    let parsed = match BackendSpec::from_label(&name) {
        Ok(spec) if spec.kind == BackendKind::External && spec.command.is_none() => {
            return Err(CompareError::MissingCommand(item.to_string()))
        }
        Ok(spec) => SolverItem::Sat(spec, options),
        Err(BackendLabelError::MissingCommand(_)) => {
            return Err(CompareError::MissingCommand(item.to_string()))
        }
        Err(err @ BackendLabelError::NotBuilt(_)) => {
            return Err(CompareError::Invalid(format!("--solvers {item}: {err}")))
        }
        Err(_) => match name.parse::<ClassicKind>() {
            Ok(kind) => SolverItem::Classic(kind, options),
            Err(_) => return Err(CompareError::UnknownSolver(name)),
        },
    };
    // An option the solver has no use for is refused here, before anything is built.
    let probe = match &parsed {
        SolverItem::Sat(backend, _) => SolverSpec::sat(DEFAULT_ENCODING, backend.clone()),
        SolverItem::Classic(kind, _) => SolverSpec::classic(*kind),
    };
    probe.with_options(parsed.options()).map_err(bad_option)?;
    Ok(vec![parsed])
}

/// Parses a comma-separated `--encodings` list of [`SudokuEncoding`] names, or `all`.
/// Repeated names are kept once.
///
/// # Errors
/// [`CompareError::UnknownEncoding`] naming the first unknown item, [`CompareError::Invalid`]
/// for an empty list.
pub fn parse_encodings(list: &str) -> Result<Vec<SudokuEncoding>, CompareError> {
    parse_list(list, "--encodings lists no encoding", |item| match item {
        "all" => Ok(SudokuEncoding::ALL.to_vec()),
        name => SudokuEncoding::from_name(name)
            .map(|e| vec![e])
            .ok_or_else(|| CompareError::UnknownEncoding(name.to_string())),
    })
}

/// Parses a comma-separated `--amo` list of [`AmoFamily`] names, or `all`.
///
/// # Errors
/// [`CompareError::Invalid`] naming the first unknown item or for an empty list.
pub fn parse_amo_families(list: &str) -> Result<Vec<AmoFamily>, CompareError> {
    parse_list(list, "--amo lists no family", |item| match item {
        "all" => Ok(AmoFamily::ALL.to_vec()),
        name => AmoFamily::from_name(name)
            .map(|f| vec![f])
            .ok_or_else(|| CompareError::Invalid(format!("unknown at-most-one family `{name}`"))),
    })
}

/// Every encoding crossed with every family (encoding-major), repeats kept once.
pub fn cross_amo(encodings: &[SudokuEncoding], families: &[AmoFamily]) -> Vec<SudokuEncoding> {
    let mut out: Vec<SudokuEncoding> = Vec::new();
    for e in encodings {
        for &f in families {
            let crossed = e.with_amo(f);
            if !out.contains(&crossed) {
                out.push(crossed);
            }
        }
    }
    out
}

/// The entries of a comparison on puzzles when none are named (`--solvers`): every
/// embedded backend but the lookahead search, and Dancing Links.
pub const DEFAULT_SOLVERS: &str = "cdcl,dpll,varisat,splr,dlx";

/// The entries of a comparison on DIMACS formulas when none are named: the puzzle default
/// without its classic solver.
pub const DEFAULT_FORMULA_SOLVERS: &str = "cdcl,dpll,varisat,splr";

/// The default `--encodings`: the SAT path's default encoding.
pub fn default_encodings() -> Vec<SudokuEncoding> {
    vec![DEFAULT_ENCODING]
}

/// One thing that runs on every puzzle: a solver choice as the rest of the crate describes
/// it ([`SolverSpec::label`] names its rows).
pub type Entry = SolverSpec;

/// Every SAT backend of `solvers` crossed with every encoding (backend-major), then the
/// classic solvers with `options`, in the order listed: [`entries_with`] under the default
/// root reasoning.
///
/// # Errors
/// As [`entries_with`].
pub fn entries(
    solvers: &[SolverItem],
    encodings: &[SudokuEncoding],
    options: &SolverOptions,
) -> Result<Vec<SolverSpec>, CompareError> {
    entries_with(solvers, encodings, options, RootMode::default())
}

/// The entries of a study, in the order listed: each SAT backend of `solvers` crossed with
/// every encoding (backend-major) unless its options name one (`encoding=`; `amo=` gives
/// each of its encodings that family), then the classic solvers. The study-wide values
/// (`options`' seed, which is cdcl's too, and `root`) come first; each item's own options
/// override them ([`SolverSpec::with_options`]).
///
/// # Errors
/// [`CompareError::EntryOption`] for an option an item's solver has no use for.
pub fn entries_with(
    solvers: &[SolverItem],
    encodings: &[SudokuEncoding],
    options: &SolverOptions,
    root: RootMode,
) -> Result<Vec<SolverSpec>, CompareError> {
    let mut out: Vec<SolverSpec> = Vec::new();
    for item in solvers {
        let own = item.options();
        let bad_option = |source| CompareError::EntryOption {
            item: match item {
                SolverItem::Sat(backend, _) => format!("{}[{own}]", backend.label()),
                SolverItem::Classic(kind, _) => format!("{kind}[{own}]"),
            },
            source,
        };
        let crossed: Vec<SolverSpec> = match item {
            SolverItem::Sat(backend, _) => {
                let study = BackendSpec {
                    seed: options.seed,
                    root,
                    ..backend.clone()
                };
                let encodings = match own.encoding {
                    Some(encoding) => vec![encoding],
                    None => encodings.to_vec(),
                };
                encodings
                    .into_iter()
                    .map(|encoding| SolverSpec::sat(encoding, study.clone()))
                    .collect()
            }
            SolverItem::Classic(kind, _) => vec![SolverSpec::classic_with(*kind, options.clone())],
        };
        for spec in crossed {
            let spec = spec.with_options(own).map_err(bad_option)?;
            if !out.contains(&spec) {
                out.push(spec);
            }
        }
    }
    Ok(out)
}
