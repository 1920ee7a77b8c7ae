// The playground's page: drawing, keyboard, the address, and messages to two workers that
// run the library (worker.js): one for quick calls (parse, sizes, encode, decode, steps),
// one for solves, which Cancel ends and replaces at once.
"use strict";

const $ = (id) => document.getElementById(id);
const SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const FAMILIES = ["pairwise", "sequential", "commander", "product", "bimander", "binary"];

const state = {
  puzzle: null, // {side, box, values, line, text} of the puzzle shown
  found: null, // values of an answer drawn over it
  wrong: null, // cells of a decoded grid that break the rules
  highlight: null, // {touched: Set, placed: Set} of the step shown
  steps: null,
  step: 0,
  focus: 0,
};

// --- workers ---------------------------------------------------------------------------

let workerUrl = null;
let wasmModule = null;

class Worker_ {
  constructor() {
    this.next = 1;
    this.pending = new Map();
    this.start();
  }
  start() {
    this.worker = new Worker(workerUrl);
    this.worker.onmessage = (event) => {
      const { id, result, progress, broken } = event.data;
      const call = this.pending.get(id);
      if (!call) return;
      if (progress) {
        if (call.onProgress) call.onProgress(progress);
        return;
      }
      this.pending.delete(id);
      if (broken) this.restart();
      call.resolve(result);
    };
    this.ready = this.send("init", { module: wasmModule });
  }
  restart() {
    this.worker.terminate();
    for (const call of this.pending.values()) call.resolve({ cancelled: true });
    this.pending.clear();
    this.start();
  }
  send(op, args, onProgress) {
    const id = this.next++;
    return new Promise((resolve) => {
      this.pending.set(id, { resolve, onProgress });
      this.worker.postMessage({ id, op, args });
    });
  }
  async call(op, args, onProgress) {
    await this.ready;
    return this.send(op, args, onProgress);
  }
}

let service = null; // parse, sizes, encode, decode, steps
let solver = null; // solve, count

// --- the grid --------------------------------------------------------------------------

function symbol(value, side) {
  if (!value) return "";
  return side <= SYMBOLS.length ? SYMBOLS[value - 1] : String(value);
}

function drawGrid() {
  const grid = $("grid");
  const p = state.puzzle;
  grid.replaceChildren();
  if (!p) return;
  const n = p.side;
  grid.style.gridTemplateColumns = `repeat(${n}, minmax(0, 1fr))`;
  grid.style.setProperty("--cell-font", `min(${Math.max(0.45, 1.6 * 9 / n).toFixed(2)}rem, ${(60 / n).toFixed(2)}vw)`);
  const shown = state.found || p.values;
  for (let i = 0; i < n * n; i++) {
    const cell = document.createElement("div");
    const r = Math.floor(i / n), c = i % n;
    cell.className = "cell";
    cell.setAttribute("role", "gridcell");
    cell.dataset.index = i;
    cell.tabIndex = i === state.focus ? 0 : -1;
    if ((c + 1) % p.box === 0 && c + 1 < n) cell.classList.add("box-right");
    if ((r + 1) % p.box === 0 && r + 1 < n) cell.classList.add("box-bottom");
    const given = p.values[i] !== 0;
    const value = shown[i];
    if (given) cell.classList.add("given");
    else if (value) cell.classList.add("found");
    if (state.wrong && state.wrong.has(i)) cell.classList.add("wrong");
    if (state.highlight) {
      if (state.highlight.touched.has(i)) cell.classList.add("touched");
      if (state.highlight.placed.has(i)) cell.classList.add("placed");
    }
    cell.textContent = symbol(value, n);
    cell.setAttribute("aria-label", `r${r + 1}c${c + 1} ${value ? symbol(value, n) : "blank"}`);
    grid.appendChild(cell);
  }
}

function focusCell(i) {
  const cells = $("grid").children;
  if (!cells.length) return;
  if (cells[state.focus]) cells[state.focus].tabIndex = -1;
  state.focus = i;
  cells[i].tabIndex = 0;
  cells[i].focus();
}

$("grid").addEventListener("click", (event) => {
  const cell = event.target.closest(".cell");
  if (cell) focusCell(Number(cell.dataset.index));
});

$("grid").addEventListener("keydown", (event) => {
  const p = state.puzzle;
  if (!p) return;
  const n = p.side;
  const i = state.focus;
  const r = Math.floor(i / n), c = i % n;
  const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  if (moves[event.key]) {
    const [dr, dc] = moves[event.key];
    focusCell(((r + dr + n) % n) * n + ((c + dc + n) % n));
    event.preventDefault();
    return;
  }
  let value = null;
  if (["Backspace", "Delete", "0", ".", " "].includes(event.key)) value = 0;
  else {
    const k = SYMBOLS.indexOf(event.key.toUpperCase());
    if (event.key.length === 1 && k >= 0 && k < n) value = k + 1;
  }
  if (value === null) return;
  event.preventDefault();
  const values = p.values.slice();
  values[i] = value;
  // Shown at once, so that quick typing builds on it; the parse then redraws.
  state.puzzle = { ...p, values };
  if (value !== 0 && i + 1 < n * n) state.focus = i + 1;
  setPuzzleText(gridText(n, values), true);
});

function gridText(n, values) {
  const rows = [];
  for (let r = 0; r < n; r++) rows.push(values.slice(r * n, r * n + n).join(" "));
  return rows.join("\n") + "\n";
}

// --- the puzzle ------------------------------------------------------------------------

let parseSerial = 0;

async function setPuzzleText(text, refocus) {
  $("puzzle-text").value = text;
  await parsePuzzle(refocus);
}

async function parsePuzzle(refocus) {
  const serial = ++parseSerial;
  const answer = await service.call("parse", [$("puzzle-text").value]);
  if (serial !== parseSerial) return; // a newer text is on its way
  const error = $("parse-error");
  clearAnswer();
  if (answer.error) {
    error.textContent = answer.line ? `line ${answer.line}, column ${answer.column}: ${answer.message}` : answer.error;
    error.hidden = false;
    // Nothing of the last good puzzle stays on show as if it were this text's.
    state.puzzle = null;
    $("puzzle-info").textContent = "";
    drawGrid();
    sizeRows = [];
    drawSizes();
    return;
  }
  error.hidden = true;
  const p = answer.puzzles[0];
  state.puzzle = p;
  const more = answer.puzzles.length > 1 ? ` (the first of ${answer.puzzles.length})` : "";
  $("puzzle-info").textContent = `${p.side}×${p.side}, ${p.givens} givens, ${answer.format} format${more}`;
  state.focus = Math.min(state.focus, p.side * p.side - 1);
  drawGrid();
  if (refocus) focusCell(state.focus);
  writeAddress();
  updateSizes();
}

function clearAnswer() {
  state.found = null;
  state.wrong = null;
  state.highlight = null;
  state.steps = null;
  $("steps").hidden = true;
  $("answer").textContent = "";
  $("progress").textContent = "";
  $("decode-answer").textContent = "";
}

let inputTimer = null;
$("puzzle-text").addEventListener("input", () => {
  clearTimeout(inputTimer);
  inputTimer = setTimeout(() => parsePuzzle(false), 150);
});

function readFileInto(input, target, then) {
  input.addEventListener("change", async () => {
    const file = input.files[0];
    if (!file) return;
    $(target).value = await file.text();
    then();
  });
}
readFileInto($("upload"), "puzzle-text", () => parsePuzzle(false));
readFileInto($("model-upload"), "model-text", () => {});

for (const [k, example] of EXAMPLES.entries()) {
  const option = document.createElement("option");
  option.value = k;
  option.textContent = example.name;
  $("examples").appendChild(option);
}
$("examples").addEventListener("change", () => {
  const example = EXAMPLES[Number($("examples").value)];
  if (example) setPuzzleText(example.text, false);
});

// --- sizes -----------------------------------------------------------------------------

for (const family of FAMILIES) {
  for (const select of [$("family-filter"), $("amo")]) {
    const option = document.createElement("option");
    option.textContent = family;
    select.appendChild(option);
  }
}
$("family-filter").addEventListener("change", () => drawSizes());

let sizeRows = [];

async function updateSizes() {
  const text = state.puzzle.text;
  const answer = await service.call("sizes", [text]);
  if (!state.puzzle || state.puzzle.text !== text) return;
  const body = $("sizes").tBodies[0];
  if (answer.error) {
    sizeRows = [];
    body.replaceChildren();
    const row = body.insertRow();
    const cell = row.insertCell();
    cell.colSpan = 5;
    cell.className = "error";
    cell.textContent = answer.error;
    return;
  }
  sizeRows = answer.rows;
  drawSizes();
}

function familyOf(name) {
  const slash = name.indexOf("/");
  return slash < 0 ? "pairwise" : name.slice(slash + 1);
}

function drawSizes() {
  const family = $("family-filter").value;
  const rows = sizeRows.filter((r) => family === "all" || familyOf(r.encoding) === family);
  const most = Math.max(1, ...rows.map((r) => r.clauses));
  const body = $("sizes").tBodies[0];
  body.replaceChildren();
  for (const r of rows) {
    const row = body.insertRow();
    if (r.encoding.includes("+reduced")) row.className = "reduced";
    for (const value of [r.encoding, r.vars, r.clauses, r.literals]) {
      row.insertCell().textContent = typeof value === "number" ? value.toLocaleString("en") : value;
    }
    const bar = row.insertCell();
    bar.className = "bar";
    const span = document.createElement("span");
    span.style.width = `${(100 * r.clauses / most).toFixed(1)}%`;
    bar.appendChild(span);
  }
}

// --- solving ---------------------------------------------------------------------------

function timeout() {
  const t = Number($("timeout").value);
  return Number.isFinite(t) && t > 0 ? t : 0;
}

function busy(on) {
  for (const id of ["solve", "unique", "show-steps"]) $(id).disabled = on;
  $("cancel").disabled = !on;
}

function progressLine(p) {
  const parts = [`${(p.millis / 1000).toFixed(1)} s`];
  for (const name of ["conflicts", "decisions", "propagations", "steps"]) {
    if (p[name] !== undefined) parts.push(`${p[name].toLocaleString("en")} ${name}`);
  }
  return parts.join(", ");
}

function seconds(millis) {
  return millis < 1000 ? `${millis.toFixed(1)} ms` : `${(millis / 1000).toFixed(2)} s`;
}

async function solve() {
  if (!state.puzzle) return;
  clearAnswer();
  drawGrid();
  busy(true);
  const name = $("solver").value;
  writeAddress(name);
  $("progress").textContent = `solving with ${name}…`;
  const answer = await solver.call("solve", [state.puzzle.text, name, timeout()], (p) => {
    $("progress").textContent = `solving with ${name}: ${progressLine(p)}`;
  });
  busy(false);
  if (answer.cancelled) return;
  $("progress").textContent = answer.counters ? `${name}: ${progressLine({ ...answer.counters, millis: answer.millis })}` : "";
  showAnswer(answer);
}

function showAnswer(answer) {
  const out = $("answer");
  out.className = "";
  if (answer.error) {
    out.className = "error";
    out.textContent = answer.error;
  } else if (answer.outcome === "solved") {
    state.found = answer.values;
    drawGrid();
    out.className = answer.valid ? "ok" : "error";
    out.textContent = `solved in ${seconds(answer.millis)}; ${answer.valid ? "checked: every row, column and box holds each digit once, and the givens stand" : "the check FAILED"}`;
  } else if (answer.outcome === "no-solution") {
    out.textContent = `no solution (${seconds(answer.millis)})`;
  } else if (answer.outcome === "unknown") {
    out.textContent = `unknown: ${answer.message}`;
  } else {
    out.textContent = `stopped: ${answer.message}`;
  }
}

async function unique() {
  if (!state.puzzle) return;
  clearAnswer();
  busy(true);
  const name = $("solver").value === "human" ? "dlx" : $("solver").value;
  $("progress").textContent = `counting solutions with ${name}, up to 2…`;
  const answer = await solver.call("count", [state.puzzle.text, name, 2, timeout()]);
  busy(false);
  if (answer.cancelled) return;
  $("progress").textContent = "";
  const out = $("answer");
  out.className = answer.error ? "error" : "";
  if (answer.error) out.textContent = answer.error;
  else if (answer.count === null) out.textContent = `unknown: ${answer.message}`;
  else out.textContent = ["no solution", "unique: exactly one solution", "not unique: two solutions or more"][answer.count];
}

function cancel() {
  solver.restart();
  busy(false);
  $("progress").textContent = "cancelled";
}

$("solve").addEventListener("click", solve);
$("unique").addEventListener("click", unique);
$("cancel").addEventListener("click", cancel);

// --- the human solver's steps ----------------------------------------------------------

async function showSteps() {
  if (!state.puzzle) return;
  clearAnswer();
  busy(true);
  $("progress").textContent = "the human solver is working…";
  const answer = await service.call("steps", [state.puzzle.text]);
  busy(false);
  $("progress").textContent = "";
  if (answer.error) {
    $("answer").className = "error";
    $("answer").textContent = answer.error;
    return;
  }
  state.steps = answer;
  state.step = 0;
  $("steps").hidden = false;
  drawStep();
}

function drawStep() {
  const all = state.steps;
  const step = all.steps[state.step];
  const n = state.puzzle.side;
  const index = (c) => (c.row - 1) * n + (c.column - 1);
  const touched = new Set((step.cells || []).map(index));
  for (const r of step.removed || []) touched.add(index(r));
  const placed = new Set(step.placed ? [index(step.placed)] : []);
  // The grid as it stood before the step, with the digit the step places.
  state.found = step.before.slice();
  if (step.placed) state.found[index(step.placed)] = step.placed.digit;
  state.highlight = { touched, placed };
  drawGrid();
  const shown = all.steps.length < all.total ? ` (the first ${all.steps.length} shown)` : "";
  $("step-number").textContent = `step ${state.step + 1} of ${all.total}${shown}`;
  $("step-text").textContent = step.text;
}

$("show-steps").addEventListener("click", showSteps);
$("step-prev").addEventListener("click", () => {
  if (state.steps && state.step > 0) { state.step--; drawStep(); }
});
$("step-next").addEventListener("click", () => {
  if (state.steps && state.step + 1 < state.steps.steps.length) { state.step++; drawStep(); }
});

// --- export and import -----------------------------------------------------------------

function encodingName() {
  const amo = $("amo").value;
  return $("base").value + ($("reduce").checked ? "+reduced" : "") + (amo === "pairwise" ? "" : `/${amo}`);
}

$("download").addEventListener("click", async () => {
  if (!state.puzzle) return;
  const answer = await service.call("encode", [state.puzzle.text, encodingName()]);
  if (answer.error) {
    $("export-info").textContent = answer.error;
    return;
  }
  $("export-info").textContent = `${answer.vars.toLocaleString("en")} variables, ${answer.clauses.toLocaleString("en")} clauses`;
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([answer.dimacs], { type: "text/plain" }));
  link.download = "puzzle.cnf";
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10000);
});

$("decode").addEventListener("click", async () => {
  if (!state.puzzle) return;
  const answer = await service.call("decode", [state.puzzle.text, encodingName(), $("model-text").value]);
  const out = $("decode-answer");
  out.className = answer.error ? "error" : "";
  if (answer.error) {
    out.textContent = answer.error;
  } else if (answer.answer !== "sat") {
    out.textContent = answer.answer === "unsat" ? "the solver answered UNSAT: no solution" : "the solver gave up (UNKNOWN): no model";
  } else {
    state.found = answer.values;
    drawGrid();
    out.className = answer.valid ? "ok" : "error";
    out.textContent = answer.valid ? "decoded and checked: a solution of the puzzle" : "decoded, but the grid breaks the rules or the givens";
  }
});

for (const id of ["base", "reduce", "amo"]) $(id).addEventListener("change", () => writeAddress());

// --- the address -----------------------------------------------------------------------

function writeAddress(solve) {
  if (!state.puzzle) return;
  const params = new URLSearchParams();
  params.set("puzzle", state.puzzle.line || state.puzzle.text);
  params.set("encoding", encodingName());
  if (solve) params.set("solve", solve);
  history.replaceState(null, "", `#${params}`);
}

function readAddress() {
  const params = new URLSearchParams(location.hash.slice(1));
  const encoding = params.get("encoding");
  if (encoding) {
    const m = encoding.match(/^(\w+)(\+reduced)?(?:\/(\w+))?$/);
    if (m) {
      $("base").value = m[1];
      $("reduce").checked = Boolean(m[2]);
      $("amo").value = m[3] || "pairwise";
    }
  }
  return { puzzle: params.get("puzzle"), solve: params.get("solve") };
}

// --- start -----------------------------------------------------------------------------

async function start() {
  // Everything the workers need is fetched now; after this the page asks the network for
  // nothing.
  const [glue, worker, module] = await Promise.all([
    fetch("pkg/sudosat_web.js").then((r) => r.text()),
    fetch("worker.js").then((r) => r.text()),
    WebAssembly.compileStreaming(fetch("pkg/sudosat_web_bg.wasm")),
  ]);
  wasmModule = module;
  workerUrl = URL.createObjectURL(new Blob([glue, "\n", worker], { type: "text/javascript" }));
  service = new Worker_();
  solver = new Worker_();
  const asked = readAddress();
  if (asked.puzzle) {
    await setPuzzleText(asked.puzzle, false);
    if (asked.solve && [...$("solver").options].some((o) => o.value === asked.solve)) {
      $("solver").value = asked.solve;
      await solve();
    }
  } else {
    await setPuzzleText(EXAMPLES[0].text, false);
  }
  document.body.dataset.ready = "true";
}

start().catch((e) => {
  $("parse-error").hidden = false;
  $("parse-error").textContent = `the page could not start: ${e}`;
});
