//! `sudosat render`: puzzles as a printable SVG sheet (or one SVG per puzzle), with their
//! solutions or pencil marks on request.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use sudosat::compression::Compression;
use sudosat::generate::Diagnosis;
use sudosat::grid::svg::Caption;
use sudosat::grid::svg::Highlight;
use sudosat::grid::{
    check_solution, write_html, write_sheet, Cell, Digit, DigitSet, Grid, Panel, SheetOptions,
};
use sudosat::solve::sat::SatSolver;
use sudosat::solve::{Solver, SolverSpec};

use crate::args::{named, PuzzleInputs};
use crate::common::{
    default_sat_path, diagnose_all, read_located_inputs, read_one_per_puzzle, stdin_at_most_once,
    time_limit, write_files_in, write_output, InputGrid, EXIT_NEGATIVE, EXIT_OK,
};

/// Arguments of `sudosat render`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    input: PuzzleInputs,
    /// Output file: an SVG sheet, or HTML pages for `.html`.
    ///
    /// Output file (`-` = standard output, the default): one SVG sheet with every puzzle,
    /// or, for a name ending `.html` (or with `--html`), an HTML document of printable
    /// pages; written whole or not at all.
    #[arg(short, long, value_name = "FILE", conflicts_with = "out_dir")]
    output: Option<PathBuf>,
    /// Write one SVG per puzzle into DIR instead.
    ///
    /// Write one SVG per puzzle into DIR instead, named `puzzle-0001.svg`, … (created if
    /// missing; the set is written whole or not at all).
    #[arg(long, value_name = "DIR")]
    out_dir: Option<PathBuf>,
    /// Solve each puzzle and draw the solution in blue.
    ///
    /// Solve each puzzle (the default SAT path) and draw the solution's digits in blue
    /// over the givens. A puzzle without a solution is drawn as it is, captioned so, and
    /// makes the exit code 1.
    #[arg(long, conflicts_with_all = ["solution", "answers"])]
    solve: bool,
    /// Diagnose each puzzle (as check --diagnose) and draw it.
    ///
    /// Diagnose each puzzle (as `check --diagnose`) and draw what was found, said in words
    /// under the grid. Without a solution: the givens that admit none together shaded
    /// yellow, those whose removal alone leaves exactly one solution blue. With several:
    /// each open cell's digits over all solutions as pencil marks, the cells that are the
    /// same in every solution filled in, and givens that would make one solution the only
    /// one in blue cells. Grids up to 36×36; a puzzle that is not proper makes the exit
    /// code 1.
    #[arg(long, conflicts_with_all = ["solve", "solution", "answers", "candidates"])]
    diagnose: bool,
    /// Draw the puzzles, then an answer key.
    ///
    /// Draw the puzzles plain, then an answer key: each puzzle again with its solution
    /// (solved by the default SAT path, or the grids of `--solution`), as puzzle books
    /// print them: after the puzzles on the sheet, on pages of their own in HTML, as
    /// `answer-0001.svg` … with `--out-dir`.
    #[arg(long)]
    answers: bool,
    /// Write HTML pages for printing.
    ///
    /// Write HTML pages for printing (each page `--per-page` grids, the answers on pages
    /// of their own) whatever the output's name.
    #[arg(long, conflicts_with = "out_dir")]
    html: bool,
    /// Grids per HTML page (default: 6 up to 9×9, 2 up to 16×16, else 1).
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(1..=1000))]
    per_page: Option<u32>,
    /// Draw the n-th grid of FILE over the n-th puzzle.
    ///
    /// Draw the n-th grid of FILE over the n-th puzzle: a solution or a partly filled grid
    /// (its digits that are not givens in blue). It must keep every given.
    #[arg(long, value_name = "FILE")]
    solution: Option<PathBuf>,
    /// Draw each open cell's candidates (pencil marks).
    ///
    /// Draw each open cell's candidates (the digits its row, column and box leave it) in
    /// a small b×b grid inside the cell, as puzzle books print pencil marks. Grids up to
    /// 36×36.
    #[arg(long)]
    candidates: bool,
    /// Grids per row of the sheet (default: 2; 1 above 9×9).
    ///
    /// Grids per row of the sheet (default: up to 2, 1 for grids larger than 9×9).
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(1..=100))]
    columns: Option<u32>,
    /// What to write above each grid.
    #[arg(long, value_name = "WHAT", default_value_t = Caption::Auto, value_parser = named::<Caption>())]
    caption: Caption,
    /// A heading across the top of the sheet (and each file's `<title>`).
    #[arg(long, value_name = "TEXT")]
    title: Option<String>,
    /// Write the digits 10 … 35 as numbers, not letters.
    ///
    /// Write the digits 10 … 35 as numbers instead of the letters A … Z (grids above
    /// 35×35 always use numbers).
    #[arg(long)]
    numbers: bool,
    /// Time limit in seconds of each puzzle's solve or diagnosis.
    ///
    /// With `--solve`, `--answers` or `--diagnose`: time limit in seconds of each puzzle's
    /// solve or diagnosis; past it the command fails (a diagnosis that has found two
    /// solutions, or that a puzzle has none, draws what it knows by then).
    #[arg(long, value_name = "SECS")]
    timeout: Option<f64>,
    /// With `--diagnose`: memory budget, as `check --max-memory`.
    #[arg(long, value_name = "BYTES", value_parser = crate::args::parse_bytes, requires = "diagnose")]
    max_memory: Option<u64>,
}

/// Runs the subcommand.
pub fn run(args: Args) -> Result<ExitCode> {
    let paths = args.input.paths();
    stdin_at_most_once(paths.iter().chain(&args.solution).map(PathBuf::as_path))?;
    let inputs = read_located_inputs(&paths, args.input.from)?;
    if inputs.is_empty() {
        bail!("no puzzle in the input");
    }
    if args.candidates || args.diagnose {
        if let Some(big) = inputs
            .iter()
            .find(|p| p.grid.side() > sudosat::grid::svg::MAX_CANDIDATE_SIDE)
        {
            let n = big.grid.side();
            bail!(
                "{}: {} draws pencil marks for grids up to 36×36, not {n}×{n}",
                big.location(),
                if args.candidates {
                    "--candidates"
                } else {
                    "--diagnose"
                }
            );
        }
    }
    let solving = args.solve || (args.answers && args.solution.is_none());
    if args.timeout.is_some() && !solving && !args.diagnose {
        bail!(
            "--timeout limits the solves of --solve or --answers, or --diagnose, and none is \
             asked for"
        );
    }
    let drawings: Vec<Drawing> = if args.diagnose {
        diagnose_all(&inputs, time_limit(args.timeout)?, args.max_memory)?
            .iter()
            .zip(&inputs)
            .map(|(found, input)| Drawing::of(&input.grid, found.as_ref()))
            .collect()
    } else {
        Vec::new()
    };
    let (filled, several) = if solving {
        solve_all(&inputs, time_limit(args.timeout)?)?
    } else if let Some(path) = &args.solution {
        (read_filled(&inputs, path)?, vec![false; inputs.len()])
    } else {
        (vec![None; inputs.len()], vec![false; inputs.len()])
    };
    // A puzzle the solve found no solution for.
    let unsolved: Vec<bool> = filled.iter().map(|f| solving && f.is_none()).collect();
    let count = inputs.len();
    let caption = |i: usize, answer: bool| -> Option<String> {
        let location = inputs[i].location();
        let text = match (args.caption.text(i, count, &location), answer) {
            (Some(_), true) if args.caption == Caption::Location => {
                Some(format!("{location} (answer)"))
            }
            (Some(_), true) => Some(format!("Answer {}", i + 1)),
            // A lone answer is still told from its puzzle.
            (None, true) if args.caption == Caption::Auto => Some("Answer".to_string()),
            (text, _) => text,
        };
        if several[i] && (answer || !args.answers) {
            return Some(match text {
                Some(text) => format!("{text}: one of several solutions"),
                None => "One of several solutions".to_string(),
            });
        }
        if !unsolved[i] || (args.answers && !answer) {
            return text;
        }
        Some(match text {
            Some(text) => format!("{text}: no solution"),
            None => "No solution".to_string(),
        })
    };
    let captions: Vec<Option<String>> = (0..count).map(|i| caption(i, false)).collect();
    let answer_captions: Vec<Option<String>> = (0..count).map(|i| caption(i, true)).collect();
    let panels: Vec<Panel<'_>> = inputs
        .iter()
        .zip(&filled)
        .zip(&captions)
        .enumerate()
        .map(|(i, ((input, filled), caption))| match drawings.get(i) {
            Some(drawing) => Panel {
                filled: drawing.filled.as_ref(),
                caption: caption.as_deref(),
                marks: drawing.marks.as_deref(),
                highlight: drawing.highlight.as_ref(),
                note: Some(&drawing.note),
                ..Panel::new(&input.grid)
            },
            None => Panel {
                filled: if args.answers { None } else { filled.as_ref() },
                caption: caption.as_deref(),
                ..Panel::new(&input.grid)
            },
        })
        .collect();
    let answers: Vec<Panel<'_>> = if args.answers {
        inputs
            .iter()
            .zip(&filled)
            .zip(&answer_captions)
            .map(|((input, filled), caption)| Panel {
                filled: filled.as_ref(),
                caption: caption.as_deref(),
                ..Panel::new(&input.grid)
            })
            .collect()
    } else {
        Vec::new()
    };
    let widest = inputs.iter().map(|p| p.grid.side()).max().unwrap_or(9);
    let default_columns = if widest > 9 { 1 } else { 2 };
    let options = SheetOptions {
        columns: args.columns.map_or(default_columns, |k| k as usize),
        candidates: args.candidates,
        numbers: args.numbers,
        title: args.title.clone(),
    };
    let html = args.html
        || args.output.as_ref().is_some_and(|p| {
            let name = p.to_string_lossy().to_lowercase();
            name.ends_with(".html") || name.ends_with(".htm")
        });
    if args.per_page.is_some() && !html {
        bail!("--per-page lays out HTML pages: name the output *.html or add --html");
    }
    let per_page = args.per_page.map_or(
        match widest {
            0..=9 => 6,
            10..=16 => 2,
            _ => 1,
        },
        |k| k as usize,
    );
    match &args.out_dir {
        Some(dir) => {
            let all: Vec<&Panel<'_>> = panels.iter().chain(&answers).collect();
            let width = count.to_string().len().max(4);
            let name = |i: usize| {
                let kind = if i < count { "puzzle" } else { "answer" };
                format!("{kind}-{:0width$}.svg", i % count + 1)
            };
            write_files_in(dir, all.len(), name, Compression::None, |i, w| {
                write_sheet(w, std::slice::from_ref(all[i]), &options)?;
                Ok(())
            })?;
        }
        None => write_output(args.output.as_deref(), |w| {
            if html {
                let mut sections = vec![(None, &panels[..])];
                if args.answers {
                    sections.push((Some("Answers"), &answers[..]));
                }
                write_html(w, &sections, &options, per_page).context("cannot draw the pages")?;
            } else {
                let all: Vec<Panel<'_>> = panels.iter().chain(&answers).copied().collect();
                write_sheet(w, &all, &options).context("cannot draw the sheet")?;
            }
            Ok(())
        })?,
    }
    let improper = drawings.iter().any(|d| !d.proper);
    Ok(ExitCode::from(if !unsolved.contains(&true) && !improper {
        EXIT_OK
    } else {
        EXIT_NEGATIVE
    }))
}

/// What `--diagnose` draws on one puzzle.
struct Drawing {
    filled: Option<Grid>,
    marks: Option<Vec<DigitSet>>,
    highlight: Option<Highlight>,
    note: String,
    proper: bool,
}

impl Drawing {
    /// The drawing of `puzzle`'s diagnosis (`None`: its givens clash).
    fn of(puzzle: &Grid, found: Option<&Diagnosis>) -> Drawing {
        let geometry = puzzle.geometry();
        let list = |givens: &[(Cell, Digit)]| -> String {
            let labels: Vec<String> = givens.iter().map(|&g| geometry.given_label(g)).collect();
            labels.join(", ")
        };
        let mut drawing = Drawing {
            filled: None,
            marks: None,
            highlight: None,
            note: String::new(),
            proper: false,
        };
        match found {
            None => {
                drawing.note = "The givens break the rules: `sudosat check` names the repeated \
                                digits."
                    .to_string()
            }
            Some(Diagnosis::Unique { .. }) => {
                drawing.note = "Proper: exactly one solution.".to_string();
                drawing.proper = true;
            }
            Some(Diagnosis::NoSolution {
                core,
                suspects,
                prime_suspects,
                minimal,
                finished,
            }) => {
                let mut note = if core.is_empty() {
                    "No solution. The time limit passed before the givens at fault were found."
                        .to_string()
                } else {
                    format!(
                        "No solution: the {} shaded givens admit none together.",
                        core.len()
                    )
                };
                if !finished {
                    if !core.is_empty() {
                        note += if *minimal {
                            " Each is needed; the time limit passed before every one was \
                             tried alone."
                        } else {
                            " The time limit passed before the diagnosis was done: some may \
                             not be needed."
                        };
                    }
                    if !prime_suspects.is_empty() {
                        note += &format!(
                            " Without the blue {}, exactly one solution is left.",
                            list(prime_suspects)
                        );
                    }
                } else if !prime_suspects.is_empty() {
                    note += &format!(
                        " Without the blue {} ({}), exactly one solution is left.",
                        if prime_suspects.len() == 1 {
                            "one"
                        } else {
                            "ones, any one of them"
                        },
                        list(prime_suspects)
                    );
                } else if suspects.is_empty() {
                    note += " No single given's removal leaves a solution.";
                } else {
                    note += &format!(" Without any one of {}, there are several.", list(suspects));
                }
                drawing.note = note;
                drawing.highlight = Some(Highlight {
                    units: core.iter().map(|&(c, _)| c).collect(),
                    cells: prime_suspects.iter().map(|&(c, _)| c).collect(),
                    ..Highlight::default()
                });
            }
            Some(Diagnosis::Several {
                solution,
                open,
                completion,
                finished,
            }) => {
                let mut filled = solution.clone();
                let mut marks = vec![DigitSet::EMPTY; geometry.side() * geometry.side()];
                for &(cell, digits) in open {
                    if !completion.iter().any(|&(c, _)| c == cell) {
                        filled.set(cell, None);
                        marks[cell.index()] = digits;
                    }
                }
                drawing.note = if *finished {
                    format!(
                        "Several solutions, which differ in {} cells: the small digits are a \
                         cell's digits over all solutions, the other cells are the same in \
                         all. Giving the {} blue cells as drawn ({}) makes one solution the \
                         only one.",
                        open.len(),
                        completion.len(),
                        list(completion)
                    )
                } else {
                    format!(
                        "Several solutions, which differ in at least {} cells (the small \
                         digits: those of the solutions found). The time limit passed before \
                         the diagnosis was done.",
                        open.len()
                    )
                };
                drawing.filled = Some(filled);
                drawing.marks = Some(marks);
                drawing.highlight = Some(Highlight {
                    cells: completion.iter().map(|&(c, _)| c).collect(),
                    ..Highlight::default()
                });
            }
        }
        drawing
    }
}

/// Each puzzle's solution by the default SAT path on every core, checked against the
/// rules and the givens (`None` for a puzzle that has none).
fn solve_all(
    inputs: &[InputGrid],
    limit: Option<std::time::Duration>,
) -> Result<(Vec<Option<Grid>>, Vec<bool>)> {
    let mut filled = Vec::with_capacity(inputs.len());
    let mut several = Vec::with_capacity(inputs.len());
    let SolverSpec::Sat {
        encoding, backend, ..
    } = default_sat_path(sudosat::run::available_cores())
    else {
        unreachable!("the default path is the SAT path")
    };
    let mut solver = SatSolver::new(encoding, backend);
    for input in inputs {
        // Up to two solutions in one run of the solver: the one drawn, and whether an
        // answer key would pass one of several off as the answer.
        solver.set_time_limit(limit);
        let mut found = solver
            .solutions(&input.grid, 2)
            .with_context(|| input.location())?;
        several.push(found.len() > 1);
        found.truncate(1);
        let solution = found.pop();
        if let Some(solution) = &solution {
            if !check_solution(&input.grid, solution).is_valid() {
                bail!("{}: the solver's grid is not a solution", input.location());
            }
        }
        filled.push(solution);
    }
    Ok((filled, several))
}

/// The grids of `path`, one per puzzle and in order, each of its puzzle's size and
/// keeping its givens.
fn read_filled(inputs: &[InputGrid], path: &std::path::Path) -> Result<Vec<Option<Grid>>> {
    let grids = read_one_per_puzzle(path, None, inputs, "grid")?;
    for (puzzle, grid) in inputs.iter().zip(&grids) {
        let (n, m) = (puzzle.grid.side(), grid.grid.side());
        if n != m {
            bail!(
                "{}: a {m}×{m} grid for the {n}×{n} puzzle at {}",
                grid.location(),
                puzzle.location()
            );
        }
        let geometry = puzzle.grid.geometry();
        for (cell, given) in puzzle.grid.givens() {
            if grid.grid.get(cell) != Some(given) {
                bail!(
                    "{}: {} is {} but the puzzle at {} gives {given}",
                    grid.location(),
                    geometry.cell_label(cell),
                    grid.grid
                        .get(cell)
                        .map_or("blank".into(), |d| d.to_string()),
                    puzzle.location()
                );
            }
        }
    }
    Ok(grids.into_iter().map(|g| Some(g.grid)).collect())
}

#[cfg(test)]
mod tests {
    use sudosat::generate::Diagnosis;
    use sudosat::grid::{Cell, Digit, Grid};

    use super::Drawing;

    fn no_solution(minimal: bool, finished: bool, prime: bool) -> String {
        // Two 1s side by side in a 4×4 grid.
        let core = vec![(Cell(0), Digit(1)), (Cell(1), Digit(1))];
        let mut puzzle = Grid::empty(2).unwrap();
        for &(cell, digit) in &core {
            puzzle.set(cell, Some(digit));
        }
        let prime_suspects = if prime { vec![core[1]] } else { vec![] };
        let diagnosis = Diagnosis::NoSolution {
            core: core.clone(),
            suspects: prime_suspects.clone(),
            prime_suspects,
            minimal,
            finished,
        };
        Drawing::of(&puzzle, Some(&diagnosis)).note
    }

    /// Each way a diagnosis without solution can end has its own sentence: a core shown
    /// minimal whose suspects were cut short by the time limit is said to be needed in
    /// full, one not shown minimal is not.
    #[test]
    fn notes_on_a_puzzle_without_solution_say_how_far_the_diagnosis_got() {
        assert_eq!(
            no_solution(true, false, false),
            "No solution: the 2 shaded givens admit none together. Each is needed; the time \
             limit passed before every one was tried alone."
        );
        assert_eq!(
            no_solution(false, false, false),
            "No solution: the 2 shaded givens admit none together. The time limit passed \
             before the diagnosis was done: some may not be needed."
        );
        assert_eq!(
            no_solution(true, false, true),
            "No solution: the 2 shaded givens admit none together. Each is needed; the time \
             limit passed before every one was tried alone. Without the blue r1c2=1, exactly \
             one solution is left."
        );
        assert_eq!(
            no_solution(true, true, true),
            "No solution: the 2 shaded givens admit none together. Without the blue one \
             (r1c2=1), exactly one solution is left."
        );
    }
}
