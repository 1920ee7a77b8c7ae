#!/usr/bin/env bash
# Builds the current SAT competition winners as solver processes, for the benchmarks that
# put them beside sudosat on the same CNF: Kissat 4.0.4 and CaDiCaL 2.2.1, from the sources
# that their crates on crates.io carry (`rustsat-kissat`, `rustsat-cadical`, version 0.7.5),
# which cargo fetches, and CaDiCaL 3.0.1 (`cadical3`), from the sources of `cadical-sys`
# 0.8.0, the crate sudosat's embedded CaDiCaL is built from. Nothing of theirs enters the repository: the sources stay in cargo's
# registry cache and the binaries in target/peers/bin.
#
# Usage: scripts/build-peers.sh            builds what is missing, prints the three paths
# Then:  KISSAT=target/peers/bin/kissat CADICAL2=target/peers/bin/cadical scripts/bench/...
#
# Needs a C and a C++ compiler (gcc/g++ or cc/c++); takes about two minutes on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
top=$PWD
out=$top/target/peers
bin=$out/bin
mkdir -p "$out/fetch/src" "$bin"

# A throw-away package whose only purpose is to make cargo fetch the three crates.
cat >"$out/fetch/Cargo.toml" <<'TOML'
[package]
name = "peer-sources"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
rustsat-kissat = "=0.7.5"
rustsat-cadical = "=0.7.5"
cadical-sys = "=0.8.0"

[workspace]
TOML
: >"$out/fetch/src/lib.rs"
cargo fetch --quiet --manifest-path "$out/fetch/Cargo.toml"
source_of() {
    cargo metadata --quiet --format-version 1 --manifest-path "$out/fetch/Cargo.toml" |
        python3 -c 'import json, os, sys
name = sys.argv[1]
for p in json.load(sys.stdin)["packages"]:
    if p["name"] == name:
        print(os.path.dirname(p["manifest_path"]))' "$1"
}
CC=${CC:-cc}
CXX=${CXX:-c++}
jobs=$(nproc 2>/dev/null || echo 2)
# start NAME SRC LABEL: an empty build folder $work for NAME, and $version from SRC.
start() {
    work=$out/$1
    rm -rf "$work" && mkdir -p "$work/obj"
    version=$(tr -d '\n' <"$2/VERSION")
    echo "build-peers: $3 $version" >&2
}

if [ ! -x "$bin/kissat" ]; then
    src=$(source_of rustsat-kissat)/csrc
    start kissat "$src" Kissat
    # What Kissat's own `configure` writes into build.h.
    cat >"$work/build.h" <<EOF
#define VERSION "$version"
#define COMPILER "$($CC --version | head -1) -O3 -DNDEBUG"
#define ID "rel-$version"
#define BUILD "$(date -u '+%Y-%m-%d')"
#define DIR "."
EOF
    ls "$src"/src/*.c | xargs -P "$jobs" -I{} sh -c \
        "$CC -O3 -DNDEBUG -w -I'$work' -I'$src/src' -c {} -o '$work/obj/'\$(basename {} .c).o"
    $CC -O3 -o "$bin/kissat" "$work"/obj/*.o -lm
fi

if [ ! -x "$bin/cadical" ]; then
    src=$(source_of rustsat-cadical)/cppsrc
    start cadical "$src" CaDiCaL
    # Every source but the model-based tester, as CaDiCaL's makefile builds `cadical`. The
    # crate's copy declares a few more API calls (its cpp-extension folder), and the version
    # defines are the ones its build script sets for 2.2: the search is CaDiCaL's own.
    ext=$(dirname "$src")/cpp-extension
    flags="-O3 -DNDEBUG -DNBUILD -DNCONTRACTS -DNTRACING -DV154 -DV160 -DV190 -DV194 -DV200 -DV213 -DV220"
    ls "$src"/src/*.cpp | grep -v '/mobical.cpp$' | xargs -P "$jobs" -I{} sh -c \
        "$CXX $flags -DVERSION='\"$version\"' -w -I'$src/src' -I'$ext' -c {} -o '$work/obj/'\$(basename {} .cpp).o"
    $CXX $flags -w -I"$src/src" -I"$ext" -c "$ext/solver_extension.cpp" -o "$work/obj/solver_extension.o"
    for c in "$src"/src/*.c; do
        [ -e "$c" ] && $CC -O3 -DNDEBUG -w -I"$src/src" -c "$c" -o "$work/obj/$(basename "$c" .c).c.o"
    done
    $CXX -O3 -o "$bin/cadical" "$work"/obj/*.o
fi

if [ ! -x "$bin/cadical3" ]; then
    src=$(source_of cadical-sys)/cadical
    start cadical3 "$src" CaDiCaL
    # As CaDiCaL's makefile builds `cadical`: every C++ source but the model-based tester,
    # and the C of kitten; NBUILD stands for the build header its configure writes.
    flags="-O3 -DNDEBUG -DNBUILD -DNCONTRACTS -DNTRACING"
    ls "$src"/src/*.cpp | grep -v '/mobical.cpp$' | xargs -P "$jobs" -I{} sh -c \
        "$CXX $flags -w -I'$src/src' -c {} -o '$work/obj/'\$(basename {} .cpp).o"
    for c in "$src"/src/*.c; do
        $CC -O3 -DNDEBUG -w -I"$src/src" -c "$c" -o "$work/obj/$(basename "$c" .c).c.o"
    done
    $CXX -O3 -o "$bin/cadical3" "$work"/obj/*.o
fi

for peer in kissat cadical cadical3; do
    "$bin/$peer" --version >/dev/null
    echo "$bin/$peer ($("$bin/$peer" --version))"
done
