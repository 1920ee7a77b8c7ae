//! AFL target: the grid parser, with auto-detection and each format, and `detect_format`.
use sudosat::grid::{check_grid, detect_format, read_puzzles, Format, Source};

fn main() {
    afl::fuzz!(|data: &[u8]| {
        for format in [
            None,
            Some(Format::Line),
            Some(Format::Block),
            Some(Format::Grid),
            Some(Format::Csv2),
        ] {
            if let Ok(grids) = read_puzzles(data, &Source::Text, format) {
                for g in &grids {
                    let _ = check_grid(g);
                }
            }
        }
        if let Ok(text) = std::str::from_utf8(data) {
            let _ = detect_format(text);
        }
    });
}
