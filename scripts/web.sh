#!/usr/bin/env bash
# The playground page (web/, docs/playground.md): the library compiled to WebAssembly, with
# a page of its own over it.
#
# Usage: scripts/web.sh build [DIR]   the static site into DIR (default target/web)
#        scripts/web.sh serve [PORT]  builds it and serves it on 127.0.0.1:PORT (default 8000)
#        scripts/web.sh size  [DIR]   the wasm file's size, raw and gzip -9, against the budget
#        scripts/web.sh tools         the wasm target and the wasm-bindgen CLI only
#
# Needs the wasm32-unknown-unknown target (added with rustup where it is missing) and the
# wasm-bindgen CLI at the version of the crate in Cargo.lock, which it installs into
# target/tools on the first run (a few minutes of compiling).
set -euo pipefail
cd "$(dirname "$0")/.."

# The compressed wasm file may not grow past this (bytes, gzip -9): the page downloads it
# whole before anything works. About 1.5 times its size when the budget was set.
WASM_GZIP_BUDGET=${WASM_GZIP_BUDGET:-600000}
WASM_BINDGEN_VERSION=$(sed -n '/^name = "wasm-bindgen"$/{n;s/^version = "\(.*\)"$/\1/p;}' Cargo.lock)
TOOLS=$PWD/target/tools
WASM=target/wasm32-unknown-unknown/web/sudosat_web.wasm

ensure_tools() {
    if ! rustup target list --installed 2>/dev/null | grep -x wasm32-unknown-unknown >/dev/null; then
        rustup target add wasm32-unknown-unknown
    fi
    local have=""
    [ -x "$TOOLS/bin/wasm-bindgen" ] && have=$("$TOOLS/bin/wasm-bindgen" --version | awk '{print $2}')
    if [ "$have" != "$WASM_BINDGEN_VERSION" ]; then
        echo "web.sh: installing wasm-bindgen-cli $WASM_BINDGEN_VERSION into target/tools" >&2
        # --locked takes the versions its authors tested; a registry that lacks one of
        # them gets the newest compatible ones instead. No TLS (the default feature): only
        # its test runner downloads anything, and rustls is half of the compile time.
        cargo install -q wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --no-default-features --locked --root "$TOOLS" \
            || cargo install -q wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --no-default-features --root "$TOOLS"
    fi
}

# The puzzles of the example list, from the shipped benchmark sets: name, file, line.
examples_js() {
    python3 - <<'EOF'
import json
examples = [
    ("9×9, minimal (22 clues)", "benches/data/9x9/minimal-2k.txt", 1),
    ("9×9, expert (guesses needed)", "benches/data/9x9/expert-375.txt", 1),
    ("16×16", "benches/data/large/sudoku-16-1.txt", None),
    ("25×25", "benches/data/large/sudoku-25-1.txt", None),
    ("25×25, hard (Gecode 1)", "benches/data/hard/gecode-25x25-6.txt", 1),
    ("25×25, hard (Gecode 4)", "benches/data/hard/gecode-25x25-6.txt", 4),
]
out = []
for name, path, line in examples:
    text = open(path).read()
    if line is not None:
        puzzles = [l for l in text.splitlines() if l.strip() and not l.startswith("#")]
        text = puzzles[line - 1] + "\n"
    out.append({"name": name, "text": text})
print("// Made by scripts/web.sh from benches/data.")
print("const EXAMPLES = " + json.dumps(out, ensure_ascii=False) + ";")
EOF
}

build() {
    local dir=${1:-target/web}
    ensure_tools
    cargo build -q -p sudosat-web --lib --target wasm32-unknown-unknown --profile web
    rm -rf "$dir"
    mkdir -p "$dir/pkg"
    "$TOOLS/bin/wasm-bindgen" --target no-modules --no-typescript --out-dir "$dir/pkg" "$WASM"
    cp web/static/index.html web/static/style.css web/static/app.js web/static/worker.js "$dir/"
    examples_js >"$dir/examples.js"
    size "$dir"
}

size() {
    local dir=${1:-target/web}
    local wasm=$dir/pkg/sudosat_web_bg.wasm
    local raw gz
    raw=$(stat -c %s "$wasm")
    gz=$(gzip -9 -c "$wasm" | wc -c)
    echo "web.sh: $wasm: $raw bytes, $gz gzip -9 (budget $WASM_GZIP_BUDGET)"
    if [ "$gz" -gt "$WASM_GZIP_BUDGET" ]; then
        echo "web.sh: the compressed wasm file is over its budget" >&2
        return 1
    fi
}

case "${1:-}" in
    build) build "${2:-target/web}" ;;
    tools) ensure_tools ;;
    size) size "${2:-target/web}" ;;
    serve)
        port=${2:-8000}
        build target/web
        echo "web.sh: serving target/web on http://127.0.0.1:$port/" >&2
        exec python3 -m http.server "$port" --bind 127.0.0.1 --directory target/web
        ;;
    *)
        sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//' >&2
        exit 2
        ;;
esac
