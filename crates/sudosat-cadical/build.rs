//! Links CaDiCaL as the `cadical-sys` crate compiles it, the names of its C part (the
//! `kitten` module) given a prefix of their own (see the crate's docs): the two static
//! libraries that crate's build makes are copied into this crate's output with every
//! global symbol that the C library defines renamed (binutils' `objcopy --redefine-syms`,
//! which renames the definitions in kitten's object and the calls in CaDiCaL's alike), and
//! the copies are linked, never the originals.

use std::env;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The prefix every name of the C library takes in the copies.
const KITTEN_PREFIX: &str = "sudosat_cadical_";

/// The libraries `cadical-sys` builds: the C++ solver (with its C API and the crate's own
/// C++ bridge, which nothing here calls), then the C of kitten, in link order.
const LIBRARIES: [&str; 2] = ["cadical-rs-bridge", "cadical-c"];

fn main() {
    let (built, sources) = cadical_sys_dirs();
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let version = fs::read_to_string(sources.join("VERSION"))
        .unwrap_or_else(|e| panic!("reading {}: {e}", sources.join("VERSION").display()));
    println!("cargo:rustc-env=SUDOSAT_CADICAL_VERSION={}", version.trim());
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=OBJCOPY");
    println!("cargo:rerun-if-env-changed=NM");
    println!("cargo:rerun-if-env-changed=CXX");
    println!("cargo:rerun-if-env-changed=CXXSTDLIB");

    let kitten = built.join(format!("lib{}.a", LIBRARIES[1]));
    let names = defined_symbols(&kitten);
    assert!(
        names.iter().any(|n| n == "kitten_init"),
        "no kitten symbols found in {}",
        kitten.display()
    );
    let map = out.join("kitten-renames.txt");
    let lines: String = names
        .iter()
        .map(|name| format!("{name} {KITTEN_PREFIX}{name}\n"))
        .collect();
    fs::write(&map, lines).expect("writing the rename list");

    for library in LIBRARIES {
        let from = built.join(format!("lib{library}.a"));
        let to = out.join(format!("libsudosat-{library}.a"));
        let mut redefine = std::ffi::OsString::from("--redefine-syms=");
        redefine.push(&map);
        tool(
            "OBJCOPY",
            "objcopy",
            &[redefine.as_os_str(), from.as_os_str(), to.as_os_str()],
        );
        println!("cargo:rerun-if-changed={}", from.display());
    }
    let renamed = defined_symbols(&out.join(format!("libsudosat-{}.a", LIBRARIES[1])));
    let left: Vec<&String> = renamed
        .iter()
        .filter(|name| !name.starts_with(KITTEN_PREFIX))
        .collect();
    assert!(left.is_empty(), "symbols left unrenamed: {left:?}");

    println!("cargo:rustc-link-search=native={}", out.display());
    for library in LIBRARIES {
        println!("cargo:rustc-link-lib=static=sudosat-{library}");
    }
    // The C++ standard library, after the solver that needs it.
    let target = env::var("TARGET").unwrap_or_default();
    let stdlib = env::var("CXXSTDLIB").ok().or_else(|| {
        if target.contains("msvc") {
            None
        } else if target.contains("apple") || target.contains("freebsd") {
            Some("c++".to_string())
        } else {
            Some("stdc++".to_string())
        }
    });
    if let Some(stdlib) = stdlib.filter(|s| !s.is_empty()) {
        match static_archive(&stdlib) {
            Some(dir) => {
                println!("cargo:rustc-link-search=native={}", dir.display());
                println!("cargo:rustc-link-lib=static:-bundle={stdlib}");
            }
            None => println!("cargo:rustc-link-lib={stdlib}"),
        }
    }
}

/// The folder of the C++ compiler's static `lib{stdlib}.a`, when it has one and the build
/// did not name its own library (`CXXSTDLIB`). Linked statically, the C++ library costs a
/// process nothing at start: dynamically, the loader resolves thousands of its symbols
/// before `main` (`--version` ran 3.3M instructions with it, 1.7M without), a cost every
/// `sudosat solve` pays. Static libraries of Debian's GCC are position independent, so the
/// Python module links it too.
fn static_archive(stdlib: &str) -> Option<PathBuf> {
    if env::var_os("CXXSTDLIB").is_some() {
        return None;
    }
    let compiler = env::var_os("CXX").unwrap_or_else(|| "c++".into());
    let output = Command::new(compiler)
        .arg(format!("-print-file-name=lib{stdlib}.a"))
        .output()
        .ok()
        .filter(|output| output.status.success())?;
    let path = PathBuf::from(String::from_utf8(output.stdout).ok()?.trim());
    // A compiler without the archive prints the bare name back.
    (path.is_absolute() && path.is_file()).then(|| path.parent().map(Path::to_path_buf))?
}

/// Where `cadical-sys` put its libraries (its build's output folder) and CaDiCaL's sources
/// in its package (the folder with `VERSION` and `src/`), from the include folders its
/// build exports (`DEP_CADICAL_CXXBRIDGE_DIR*`: `OUT/cxxbridge/include`, and
/// `OUT/cxxbridge/crate`, where `cadical-sys` links to the package).
fn cadical_sys_dirs() -> (PathBuf, PathBuf) {
    let exported: Vec<PathBuf> = (0..8)
        .filter_map(|i| env::var_os(format!("DEP_CADICAL_CXXBRIDGE_DIR{i}")))
        .map(PathBuf::from)
        .collect();
    let built = exported
        .iter()
        .filter_map(|dir| dir.parent()?.parent())
        .find(|out| out.join(format!("lib{}.a", LIBRARIES[0])).is_file());
    let sources = exported
        .iter()
        .map(|dir| dir.join("cadical-sys").join("cadical"))
        .find(|root| root.join("VERSION").is_file());
    match (built, sources) {
        (Some(built), Some(sources)) => (built.to_path_buf(), sources),
        _ => panic!(
            "cadical-sys's libraries and sources were not found through \
             DEP_CADICAL_CXXBRIDGE_DIR* ({exported:?})"
        ),
    }
}

/// The global symbols an archive defines (for kitten's: `kitten_…`, `citten_…` and the
/// helpers it leaves global, which Kissat's copy defines too).
fn defined_symbols(archive: &Path) -> Vec<String> {
    let listed = tool(
        "NM",
        "nm",
        &[
            "--defined-only".as_ref(),
            "-g".as_ref(),
            archive.as_os_str(),
        ],
    );
    let mut names: Vec<String> = listed
        .lines()
        .filter_map(|line| line.split_whitespace().nth(2))
        .map(str::to_string)
        .collect();
    names.sort();
    names.dedup();
    names
}

/// Runs binutils' `default` (or `$ENV`) with `args`; its standard output.
fn tool(env_name: &str, default: &str, args: &[&std::ffi::OsStr]) -> String {
    let program = env::var_os(env_name).unwrap_or_else(|| default.into());
    let output = Command::new(&program)
        .args(args)
        .output()
        .unwrap_or_else(|e| {
            panic!(
                "cannot run {} (binutils; ${env_name} names another): {e}",
                program.to_string_lossy()
            )
        });
    assert!(
        output.status.success(),
        "{} {:?} failed: {}",
        program.to_string_lossy(),
        args,
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}
