//! `sudosat explain`: solve puzzles with the human-style strategies and print every step in
//! words, a summary, and the solution.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{bail, Context, Result};
use sudosat::backend::{BackendError, BackendKind, BackendSpec};
use sudosat::compression::Compression;
use sudosat::generate::{diagnose, Diagnosis};
use sudosat::grid::svg::MAX_CANDIDATE_SIDE;
use sudosat::grid::{
    check_grid, write_candidates, write_grid, write_html, write_sheet, Cell, Digit, DigitSet,
    Format, Geometry, Grid, Highlight, Panel, SheetOptions,
};
use sudosat::solve::human::{next_step, solve_logged_until, Board, HumanRun, Step, Strategy};
use sudosat::solve::{Deadline, SolveOutcome};

use crate::args::{OutputFormat, PuzzleInputs};
use crate::common::{
    input_json, solutions, solutions_up_to, time_limit, write_files_in, write_output, InputGrid,
    Solutions, EXIT_NEGATIVE, EXIT_OK,
};

/// Arguments of `sudosat explain`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    input: PuzzleInputs,
    #[command(flatten)]
    format: OutputFormat,
    /// Print only the summary and the solution, not the numbered steps.
    #[arg(long)]
    summary_only: bool,
    /// Print only a hint towards the next step (level 1…).
    ///
    /// Print only a hint towards the next step of each grid (a puzzle, or one partly
    /// filled in), not the steps or the solution: 1 names the strategy and where to look,
    /// 2 adds why it applies, 3 gives the step.
    #[arg(long, value_name = "LEVEL", value_parser = clap::value_parser!(u8).range(1..=3), conflicts_with = "summary_only")]
    hint: Option<u8>,
    /// Print each grid's pencil marks first.
    ///
    /// Print each grid's pencil marks first: every open cell's candidates (the digits its
    /// row, column and box leave it), in the bordered layout teachers project.
    #[arg(long)]
    candidates: bool,
    /// Time limit in seconds per puzzle.
    ///
    /// Time limit in seconds per puzzle (guessing can take long on large grids); past it
    /// the command fails.
    #[arg(long, value_name = "SECS")]
    timeout: Option<f64>,
    /// Output file (`-` = standard output, the default).
    ///
    /// Output file (`-` = standard output, the default); written whole or not at all.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Also draw the solve step by step as SVG into DIR.
    ///
    /// Also draw the solve step by step as SVG pictures into DIR: the board before each
    /// step with its pencil marks, the step shaded (the units it looks at, its pattern
    /// with the pattern's digits green, the placed digit's cell green, removed candidates
    /// red and struck through) and in words below it, `step-001.svg` …, then
    /// `solution.svg`; names start `puzzle-0001-` … with several puzzles. With `--hint`,
    /// one `hint.svg` per grid, showing as much as the level tells. Grids up to 36×36;
    /// the set is written whole or not at all.
    #[arg(long, value_name = "DIR")]
    svg: Option<PathBuf>,
    /// Also write the solve step by step as an HTML file.
    ///
    /// Also write the solve step by step as one HTML document of printable pages: the
    /// pictures of `--svg`, four a page (two across) up to 9×9, each puzzle's steps from
    /// a page of their own; written whole or not at all.
    #[arg(long, value_name = "FILE.html", conflicts_with = "hint")]
    html: Option<PathBuf>,
    /// Write JSON for programs instead of words.
    ///
    /// Write JSON for programs instead of words: per puzzle its file, line, size, givens,
    /// outcome, solutions (`0`, `1`, `2+`), the steps (each with its kind, strategy,
    /// units, cells, digits, placement, removals and text; left out with
    /// `--summary-only`), the strategies used and the solution as rows of numbers. With
    /// `--hint`, per grid the hint's step showing as much as the level tells.
    #[arg(long, conflicts_with = "candidates")]
    json: bool,
}

/// The human solver's run on `puzzle` and, when it solved it, how many solutions there are
/// (up to two), both within `limit`.
fn explain_one(puzzle: &Grid, limit: Option<Duration>) -> Result<(HumanRun, Solutions)> {
    let deadline = Deadline::after(limit);
    let run = solve_logged_until(puzzle, deadline)?;
    // Only a solved puzzle can have another solution worth a note.
    let unique = match run.outcome {
        SolveOutcome::Solved(_) => solutions(puzzle, deadline)?,
        _ => Solutions::None,
    };
    Ok((run, unique))
}

/// The hint of one grid: its first step and whether it can be completed, asked of the SAT
/// path on every core rather than of the human solver's run, which may guess for long on
/// a large grid. Uniqueness is counted only for a unique-rectangle step, the one that
/// assumes it (proving a hard 25×25 grid unique took longer than solving it).
fn hint_one(puzzle: &Grid, limit: Option<Duration>, level: u8) -> Result<Hint> {
    let step = next_step(puzzle);
    let unique_rectangle = matches!(
        &step,
        Some(Step::Deduction(d)) if d.strategy == Strategy::UniqueRectangle
    );
    // An empty grid's count is free (no SAT check), so the hint can say it has several.
    let count_to = if unique_rectangle || puzzle.num_givens() == 0 {
        2
    } else {
        1
    };
    let cores = sudosat::run::available_cores();
    let solutions = solutions_up_to(puzzle, Deadline::after(limit), count_to, cores)?;
    // A grid that cannot be completed: from level 2 on, the digits whose removal alone
    // leaves exactly one solution (a wrongly filled-in digit is one), when the diagnosis
    // finds them in time.
    let mut suspects = Vec::new();
    if solutions == Solutions::None && level >= 2 && check_grid(puzzle).is_valid() {
        // Within half the available memory: past it, or past the time limit, the hint
        // just names no suspect.
        let spec =
            BackendSpec::new(BackendKind::Cdcl).with_memory(crate::common::memory_budget(None));
        match diagnose(puzzle, &spec, &Deadline::after(limit)) {
            Ok(Diagnosis::NoSolution { prime_suspects, .. }) => suspects = prime_suspects,
            Ok(_)
            | Err(sudosat::Error::Backend(BackendError::Timeout { .. }))
            | Err(sudosat::Error::OverBudget { .. } | sudosat::Error::Unsupported(_)) => {}
            Err(e) => return Err(e.into()),
        }
    }
    Ok(Hint {
        step,
        solutions,
        suspects,
    })
}

/// What `--hint` found for one grid.
struct Hint {
    step: Option<Step>,
    solutions: Solutions,
    /// For a grid without solution, from level 2: the digits whose removal alone leaves
    /// exactly one solution.
    suspects: Vec<(Cell, Digit)>,
}

impl Hint {
    /// The words for a grid without solution.
    fn no_solution(&self, geo: &Geometry) -> String {
        let names: Vec<String> = self
            .suspects
            .iter()
            .map(|&suspect| geo.given_label(suspect))
            .collect();
        match names.len() {
            0 => "this grid cannot be completed (a digit in it is wrong, or the puzzle has no \
                  solution; `sudosat check --diagnose` names the digits that may be wrong)"
                .to_string(),
            1 => format!(
                "this grid cannot be completed: {} is wrong, or the puzzle has no solution \
                 (without it, exactly one solution is left)",
                names[0]
            ),
            _ => format!(
                "this grid cannot be completed: one of {} is wrong, or the puzzle has no \
                 solution (without any one of them, exactly one solution is left)",
                names.join(", ")
            ),
        }
    }
}

/// Runs the subcommand.
pub fn run(args: Args) -> Result<ExitCode> {
    let inputs = args.input.read()?;
    let limit = time_limit(args.timeout)?;
    if args.svg.is_some() || args.html.is_some() {
        if let Some(big) = inputs.iter().find(|p| p.grid.side() > MAX_CANDIDATE_SIDE) {
            let n = big.grid.side();
            bail!(
                "{}: --svg and --html draw pencil marks, for grids up to \
                 {MAX_CANDIDATE_SIDE}×{MAX_CANDIDATE_SIDE}, not {n}×{n}",
                big.location()
            );
        }
    }
    if let Some(level) = args.hint {
        return run_hints(&args, &inputs, limit, level);
    }
    let runs = inputs
        .iter()
        .map(|input| explain_one(&input.grid, limit).with_context(|| input.location()))
        .collect::<Result<Vec<(HumanRun, Solutions)>>>()?;
    let all_solved = runs
        .iter()
        .all(|(run, _)| matches!(run.outcome, SolveOutcome::Solved(_)));
    // The pictures first: a directory or file that cannot be written then stops the
    // command before any text is printed.
    if let Some(dir) = &args.svg {
        draw_steps(dir, &inputs, &runs)?;
    }
    if let Some(path) = &args.html {
        write_output(Some(path), |w| write_steps_html(w, &inputs, &runs))?;
    }
    let format = Format::from(args.format);
    write_output(args.output.as_deref(), |w| {
        if args.json {
            let puzzles: Vec<serde_json::Value> = inputs
                .iter()
                .zip(&runs)
                .map(|(input, (run, unique))| run_json(input, run, *unique, args.summary_only))
                .collect();
            serde_json::to_writer(&mut *w, &serde_json::json!({ "puzzles": puzzles }))?;
            writeln!(w)?;
            return Ok(());
        }
        for (i, (input, (run, unique))) in inputs.iter().zip(&runs).enumerate() {
            write_heading(w, i, inputs.len(), input, args.candidates)?;
            write_explanation(w, input, run, format, args.summary_only)?;
            if *unique == Solutions::Several {
                writeln!(
                    w,
                    "note: this puzzle has 2 or more solutions; the one above is one of them, \
                     and a step that assumes a unique solution (unique rectangle) may not hold \
                     (`sudosat check --diagnose` shows where they differ and which givens \
                     would make one unique)"
                )?;
            }
        }
        Ok(())
    })?;
    Ok(ExitCode::from(if all_solved {
        EXIT_OK
    } else {
        EXIT_NEGATIVE
    }))
}

/// What comes before grid `i` of `count`: a blank line and a `puzzle K (FILE:LINE)`
/// heading when there are several, then its pencil marks with `--candidates`.
fn write_heading(
    w: &mut dyn std::io::Write,
    i: usize,
    count: usize,
    input: &InputGrid,
    candidates: bool,
) -> Result<()> {
    if count > 1 {
        if i > 0 {
            writeln!(w)?;
        }
        writeln!(w, "puzzle {} ({})", i + 1, input.location())?;
    }
    if candidates {
        write_candidates(w, &input.grid)?;
    }
    Ok(())
}

/// `--hint`: for each grid, its pencil marks (with `--candidates`) and a hint towards its
/// next step; exit 1 when a grid cannot be completed.
fn run_hints(
    args: &Args,
    inputs: &[InputGrid],
    limit: Option<Duration>,
    level: u8,
) -> Result<ExitCode> {
    let hints = inputs
        .iter()
        .map(|input| hint_one(&input.grid, limit, level).with_context(|| input.location()))
        .collect::<Result<Vec<_>>>()?;
    if let Some(dir) = &args.svg {
        draw_hints(dir, inputs, &hints, level)?;
    }
    write_output(args.output.as_deref(), |w| {
        if args.json {
            let grids: Vec<serde_json::Value> = inputs
                .iter()
                .zip(&hints)
                .map(|(input, hint)| {
                    let geo = input.grid.geometry();
                    let mut grid = input_json(input);
                    grid["solutions"] = serde_json::json!(hint.solutions.field());
                    grid["hint"] = match (hint.solutions, &hint.step) {
                        (Solutions::None, _) | (_, None) => serde_json::Value::Null,
                        (_, Some(step)) => step.to_json(geo, level),
                    };
                    if hint.solutions == Solutions::None && level >= 2 {
                        let suspects: Vec<serde_json::Value> = hint
                            .suspects
                            .iter()
                            .map(|&suspect| geo.candidate_json(suspect))
                            .collect();
                        grid["suspects"] = serde_json::json!(suspects);
                    }
                    grid
                })
                .collect();
            serde_json::to_writer(
                &mut *w,
                &serde_json::json!({ "level": level, "grids": grids }),
            )?;
            writeln!(w)?;
            return Ok(());
        }
        for (i, (input, hint)) in inputs.iter().zip(&hints).enumerate() {
            write_heading(w, i, inputs.len(), input, args.candidates)?;
            let geo = input.grid.geometry();
            let (step, solutions) = (&hint.step, &hint.solutions);
            match (solutions, step) {
                (Solutions::None, _) => writeln!(w, "no solution: {}", hint.no_solution(geo))?,
                (_, None) => writeln!(w, "nothing to do: the grid is full")?,
                (_, Some(step)) => writeln!(w, "hint: {}", step.hint(geo, level))?,
            }
            if *solutions == Solutions::Several {
                writeln!(
                    w,
                    "note: this grid has 2 or more solutions, so a unique-rectangle step may \
                     not hold (`sudosat check --diagnose` shows where they differ)"
                )?;
            }
        }
        Ok(())
    })?;
    let all_solvable = hints.iter().all(|h| h.solutions != Solutions::None);
    Ok(ExitCode::from(if all_solvable {
        EXIT_OK
    } else {
        EXIT_NEGATIVE
    }))
}

/// One puzzle: the numbered steps (unless `summary_only`), the summary, then the solution
/// or `no solution`.
fn write_explanation(
    w: &mut dyn std::io::Write,
    input: &InputGrid,
    run: &HumanRun,
    format: Format,
    summary_only: bool,
) -> Result<()> {
    let geo = input.grid.geometry();
    if !summary_only {
        for (k, step) in run.log.steps.iter().enumerate() {
            writeln!(w, "{}. {}", k + 1, step.describe(geo))?;
        }
    }
    writeln!(w, "{}", run.log.summary())?;
    match &run.outcome {
        SolveOutcome::Solved(grid) => {
            if format == Format::Csv2 {
                writeln!(w, "puzzle")?;
            }
            write_grid(w, grid, format)?;
        }
        SolveOutcome::NoSolution => {
            writeln!(w, "no solution")?;
            writeln!(
                w,
                "note: `sudosat check --diagnose` names the givens that may be wrong"
            )?;
        }
        // Not reached: the human solver guesses when logic runs out, so it always finishes.
        SolveOutcome::Stopped(why) => writeln!(w, "stopped: {why}")?,
    }
    Ok(())
}

/// The file-name prefix of puzzle `i` of `count` in an `--svg` directory.
fn picture_prefix(i: usize, count: usize) -> String {
    if count > 1 {
        format!("puzzle-{:04}-", i + 1)
    } else {
        String::new()
    }
}

/// One picture of a solve: a board with its pencil marks and, for a step, the step
/// shaded, with a caption above and the step in words below.
struct Picture {
    filled: Option<Grid>,
    marks: Option<Vec<DigitSet>>,
    highlight: Option<Highlight>,
    caption: String,
    note: String,
}

impl Picture {
    /// The picture of `board` (the puzzle's givens bold, the board's other digits filled).
    fn of_board(board: &Board, highlight: Option<Highlight>, caption: &str, note: &str) -> Picture {
        Picture {
            filled: board.to_grid(),
            marks: Some(board.all_candidates().to_vec()),
            highlight,
            caption: caption.to_string(),
            note: note.to_string(),
        }
    }

    /// The picture of a puzzle whose givens clash: no board, no step.
    fn clash() -> Picture {
        Picture {
            filled: None,
            marks: None,
            highlight: None,
            caption: "No solution: the givens clash".to_string(),
            note: String::new(),
        }
    }

    /// The panel that draws it over `puzzle`.
    fn panel<'a>(&'a self, puzzle: &'a Grid) -> Panel<'a> {
        Panel {
            filled: self.filled.as_ref(),
            caption: Some(&self.caption),
            marks: self.marks.as_deref(),
            highlight: self.highlight.as_ref(),
            note: (!self.note.is_empty()).then_some(self.note.as_str()),
            ..Panel::new(puzzle)
        }
    }
}

/// The pictures of one solve: the board before each step with the step shown, then the
/// solution (or the dead end) with the summary.
fn step_pictures(puzzle: &Grid, run: &HumanRun) -> Vec<Picture> {
    let boards = run.log.replay(puzzle);
    if boards.is_empty() {
        return vec![Picture::clash()];
    }
    let geo = puzzle.geometry();
    let steps = &run.log.steps;
    let mut pictures: Vec<Picture> = steps
        .iter()
        .zip(&boards)
        .enumerate()
        .map(|(k, (step, board))| {
            let what = match step {
                Step::Deduction(d) => d.strategy.name(),
                Step::Guess { .. } => "guess",
                Step::Backtrack { .. } => "backtrack",
            };
            let caption = format!("Step {} of {}: {what}", k + 1, steps.len());
            let highlight = Some(step.highlight(geo, 3));
            Picture::of_board(board, highlight, &caption, &step.describe(geo))
        })
        .collect();
    let caption = match run.outcome {
        SolveOutcome::Solved(_) => "Solution",
        _ => "No solution",
    };
    let last = boards.last().expect("a board after the last step");
    pictures.push(Picture::of_board(last, None, caption, &run.log.summary()));
    pictures
}

/// `--svg` with the steps: per puzzle, a picture before each step and one of the end.
fn draw_steps(
    dir: &std::path::Path,
    inputs: &[InputGrid],
    runs: &[(HumanRun, Solutions)],
) -> Result<()> {
    // (puzzle, picture): picture k < steps is the board before step k, then the end.
    let pictures: Vec<(usize, usize)> = runs
        .iter()
        .enumerate()
        .flat_map(|(i, (run, _))| (0..=run.log.steps.len()).map(move |k| (i, k)))
        .collect();
    let name = |j: usize| {
        let (i, k) = pictures.get(j).copied().unwrap_or((inputs.len(), 0));
        let prefix = picture_prefix(i, inputs.len());
        match runs.get(i) {
            Some((run, _)) if k < run.log.steps.len() => {
                let width = run.log.steps.len().to_string().len().max(3);
                format!("{prefix}step-{:0width$}.svg", k + 1)
            }
            Some((run, _)) if !matches!(run.outcome, SolveOutcome::Solved(_)) => {
                format!("{prefix}no-solution.svg")
            }
            _ => format!("{prefix}solution.svg"),
        }
    };
    // The pictures of one puzzle at a time: the files come in order.
    let mut drawn: Option<(usize, Vec<Picture>)> = None;
    write_files_in(dir, pictures.len(), name, Compression::None, |j, w| {
        let (i, k) = pictures[j];
        let puzzle = &inputs[i].grid;
        if !matches!(&drawn, Some((at, _)) if *at == i) {
            drawn = Some((i, step_pictures(puzzle, &runs[i].0)));
        }
        let all = &drawn.as_ref().expect("drawn above").1;
        let picture = all.get(k).unwrap_or(&all[all.len() - 1]);
        write_sheet(w, &[picture.panel(puzzle)], &SheetOptions::default())?;
        Ok(())
    })
}

/// `--html`: every puzzle's solve on printable pages, four pictures a page (two across)
/// up to 9×9, one above, a puzzle's steps starting a page of their own.
fn write_steps_html(
    w: &mut dyn std::io::Write,
    inputs: &[InputGrid],
    runs: &[(HumanRun, Solutions)],
) -> Result<()> {
    let pictures: Vec<Vec<Picture>> = inputs
        .iter()
        .zip(runs)
        .map(|(input, (run, _))| step_pictures(&input.grid, run))
        .collect();
    let panels: Vec<Vec<Panel<'_>>> = inputs
        .iter()
        .zip(&pictures)
        .map(|(input, all)| all.iter().map(|p| p.panel(&input.grid)).collect())
        .collect();
    let headings: Vec<Option<String>> = inputs
        .iter()
        .enumerate()
        .map(|(i, input)| {
            (inputs.len() > 1).then(|| format!("Puzzle {} ({})", i + 1, input.location()))
        })
        .collect();
    let sections: Vec<(Option<&str>, &[Panel<'_>])> = headings
        .iter()
        .zip(&panels)
        .map(|(heading, panels)| (heading.as_deref(), &panels[..]))
        .collect();
    let small = inputs.iter().all(|p| p.grid.side() <= 9);
    let options = SheetOptions {
        columns: if small { 2 } else { 1 },
        ..SheetOptions::default()
    };
    write_html(w, &sections, &options, if small { 4 } else { 1 })?;
    Ok(())
}

/// `--svg` with `--hint`: one picture per grid, its next step shown at the hint's level.
fn draw_hints(
    dir: &std::path::Path,
    inputs: &[InputGrid],
    hints: &[Hint],
    level: u8,
) -> Result<()> {
    let name = |i: usize| format!("{}hint.svg", picture_prefix(i, inputs.len()));
    write_files_in(dir, inputs.len(), name, Compression::None, |i, w| {
        let puzzle = &inputs[i].grid;
        let geo = puzzle.geometry();
        let Some(board) = Board::new(puzzle) else {
            write_sheet(
                w,
                &[Picture::clash().panel(puzzle)],
                &SheetOptions::default(),
            )?;
            return Ok(());
        };
        // The grid as given is the puzzle here: its digits are drawn as givens.
        let hint = &hints[i];
        let picture = match (&hint.solutions, &hint.step) {
            (Solutions::None, _) => {
                // The suspects shaded as a pattern's cells.
                let suspects = (!hint.suspects.is_empty()).then(|| Highlight {
                    cells: hint.suspects.iter().map(|&(c, _)| c).collect(),
                    ..Highlight::default()
                });
                Picture::of_board(&board, suspects, "No solution", &hint.no_solution(geo))
            }
            (_, None) => Picture::of_board(&board, None, "Nothing to do", "the grid is full"),
            (_, Some(step)) => Picture::of_board(
                &board,
                Some(step.highlight(geo, level)),
                &format!("Hint (level {level})"),
                &step.hint(geo, level),
            ),
        };
        write_sheet(w, &[picture.panel(puzzle)], &SheetOptions::default())?;
        Ok(())
    })
}

/// One puzzle's explanation as JSON (`--json`).
fn run_json(
    input: &InputGrid,
    run: &HumanRun,
    solutions: Solutions,
    summary_only: bool,
) -> serde_json::Value {
    use serde_json::json;
    let geo = input.grid.geometry();
    let mut value = input_json(input);
    let (outcome, solution) = match &run.outcome {
        SolveOutcome::Solved(grid) => {
            let rows: Vec<&[u16]> = grid.values().chunks(grid.side()).collect();
            ("solved", json!(rows))
        }
        SolveOutcome::NoSolution => ("no_solution", serde_json::Value::Null),
        SolveOutcome::Stopped(_) => ("stopped", serde_json::Value::Null),
    };
    value["outcome"] = json!(outcome);
    value["solutions"] = json!(solutions.field());
    if !summary_only {
        let steps: Vec<serde_json::Value> =
            run.log.steps.iter().map(|s| s.to_json(geo, 3)).collect();
        value["steps"] = json!(steps);
    }
    let strategies: serde_json::Map<String, serde_json::Value> = run
        .log
        .counts()
        .iter()
        .map(|(s, k)| (s.name().to_string(), json!(k)))
        .collect();
    value["summary"] = json!({
        "steps": run.log.steps.len(),
        "strategies": strategies,
        "hardest": run.log.hardest().map(|s| s.name()),
        "guesses": run.log.guesses(),
        "backtracks": run.log.backtracks(),
    });
    value["solution"] = solution;
    value
}
