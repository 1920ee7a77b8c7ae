// The playground in a real browser: Debian's Chromium, driven by playwright-core, loads the
// page built by `scripts/web.sh build` from a server on 127.0.0.1 and is checked by what a
// user sees, against the `sudosat` binary on the same puzzles.
//
// Environment: SUDOSAT_WEB_DIR (the built site, default target/web), SUDOSAT_BIN (default
// target/debug/sudosat), CHROMIUM (default /usr/bin/chromium). The model test runs Debian's
// `cadical`; without it it skips with the reason, and fails when
// SUDOSAT_REQUIRE_EXTERNAL=1, as the Rust tests do.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { launchChromium, serveSite } from "../tools/browser.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const SITE = resolve(ROOT, process.env.SUDOSAT_WEB_DIR || "target/web");
const BIN = resolve(ROOT, process.env.SUDOSAT_BIN || "target/debug/sudosat");

const PUZZLE = "800000000003600000070090200050007000000045700000100030001000068008500010090000400";
let server, base, browser, scratch;

function sudosat(args, input) {
  return execFileSync(BIN, args, { input, encoding: "utf8", cwd: scratch });
}

before(async () => {
  assert.ok(existsSync(join(SITE, "index.html")), `${SITE}: build the site first (scripts/web.sh build)`);
  assert.ok(existsSync(BIN), `${BIN}: build the binary first (cargo build)`);
  scratch = mkdtempSync(join(tmpdir(), "sudosat-web-"));
  ({ server, base } = await serveSite(SITE));
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  server?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** A fresh page at `hash`, ready (the workers started), with the requests it makes after. */
async function open(hash = "", viewport = { width: 1200, height: 1000 }) {
  const context = await browser.newContext({ viewport, acceptDownloads: true });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(base + hash);
  await page.waitForSelector("body[data-ready=true]", { timeout: 30000 });
  const later = [];
  page.on("request", (r) => later.push(r.url()));
  context.on("request", (r) => later.push(r.url()));
  return { page, context, errors, later };
}

/** Picks the example whose name holds `name`, and waits until its `side` grid is shown. */
async function pickExample(page, name, side) {
  const k = await page.evaluate((name) => EXAMPLES.findIndex((e) => e.name.includes(name)), name);
  await page.selectOption("#examples", String(k));
  await page.waitForFunction((side) => document.querySelector("#puzzle-info").textContent.startsWith(side), side);
}

async function gridValues(page) {
  return page.$$eval("#grid .cell", (cells) => cells.map((c) => c.textContent));
}

/** The grid `sudosat solve` prints for a 9×9 puzzle, as the page's cells show it. */
function solvedCells(puzzle) {
  const line = sudosat(["solve", "-", "--to", "line"], puzzle + "\n").trim();
  return [...line];
}

test("a puzzle typed and solved shows the right grid, checked", async () => {
  const { page, context, errors, later } = await open();
  await page.fill("#puzzle-text", "");
  await page.focus("#puzzle-text");
  await page.keyboard.type(PUZZLE);
  await page.waitForFunction(() => document.querySelector("#puzzle-info").textContent.startsWith("9×9, 21 givens"));
  await page.selectOption("#solver", "cdcl");
  await page.click("#solve");
  await page.waitForSelector("#answer.ok");
  assert.deepEqual(await gridValues(page), solvedCells(PUZZLE));
  assert.match(await page.textContent("#answer"), /checked/);
  // The givens stand apart from the digits found.
  assert.equal(await page.$$eval("#grid .cell.given", (c) => c.length), 21);
  assert.equal(await page.$$eval("#grid .cell.found", (c) => c.length), 60);
  for (const solver of ["dpll", "dlx", "human"]) {
    await page.selectOption("#solver", solver);
    await page.click("#solve");
    await page.waitForSelector("#answer.ok");
    assert.deepEqual(await gridValues(page), solvedCells(PUZZLE), solver);
  }
  await page.click("#unique");
  await page.waitForFunction(() => document.querySelector("#answer").textContent.startsWith("unique"));
  assert.deepEqual(errors, []);
  assert.deepEqual(later.filter((u) => !/^(blob|data):/.test(u)), [], "no network request after load");
  await context.close();
});

test("digits typed in the cells and arrows edit the puzzle", async () => {
  const { page, context } = await open(`#puzzle=${PUZZLE}`);
  await page.click("#grid .cell >> nth=1"); // r1c2, blank
  await page.keyboard.press("4");
  // Typing moved on to r1c3; down to r2c3, then left past r2c1 round to r2c9.
  for (const key of ["ArrowDown", "ArrowLeft", "ArrowLeft", "ArrowLeft"]) await page.keyboard.press(key);
  await page.keyboard.press("7");
  await page.waitForFunction(() => document.querySelector("#puzzle-info").textContent.startsWith("9×9, 23 givens"));
  const cells = await gridValues(page);
  assert.equal(cells[1], "4");
  assert.equal(cells[17], "7");
  await context.close();
});

test("the sizes table equals `sudosat sizes` for the same puzzle", async () => {
  const { page, context } = await open(`#puzzle=${PUZZLE}`);
  await page.waitForSelector("#sizes tbody tr:nth-child(20)");
  const shown = await page.$$eval("#sizes tbody tr", (rows) =>
    rows.map((r) => [...r.cells].slice(0, 4).map((c) => c.textContent.replaceAll(",", ""))));
  writeFileSync(join(scratch, "p.txt"), PUZZLE + "\n");
  const csv = sudosat(["sizes", "p.txt", "--all", "--csv"]).trim().split("\n");
  const header = csv[0].split(",");
  const col = (name) => header.indexOf(name);
  const expected = csv.slice(1).map((l) => l.split(","))
    .filter((f) => f[col("puzzle")] === "1")
    .map((f) => [f[col("encoding")], f[col("vars")], f[col("clauses")], f[col("literals")]]);
  assert.ok(expected.length >= 12, csv.join("\n"));
  assert.deepEqual(shown, expected);
  // Bars for every row.
  assert.equal(await page.$$eval("#sizes td.bar span", (s) => s.length), expected.length);
  await context.close();
});

test("the DIMACS download equals `sudosat encode`, and a cadical model decodes to the checked grid", async (t) => {
  const { page, context } = await open(`#puzzle=${PUZZLE}`);
  await page.selectOption("#base", "minimal");
  await page.check("#reduce");
  await page.selectOption("#amo", "sequential");
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#download")]);
  const got = readFileSync(await download.path());
  writeFileSync(join(scratch, "p.txt"), PUZZLE + "\n");
  sudosat(["encode", "p.txt", "--encoding", "minimal", "--reduce", "--amo", "sequential", "-o", "p.cnf"]);
  const want = readFileSync(join(scratch, "p.cnf"));
  assert.ok(got.equals(want), "the page's DIMACS differs from sudosat encode's");
  // The address keeps the options.
  assert.match(page.url(), /encoding=minimal%2Breduced%2Fsequential/);

  const cadical = spawnSync("cadical", ["-q", join(scratch, "p.cnf")], { encoding: "utf8" });
  if (cadical.error) {
    assert.notEqual(process.env.SUDOSAT_REQUIRE_EXTERNAL, "1", "cadical is required (SUDOSAT_REQUIRE_EXTERNAL=1)");
    t.skip("cadical is not installed (apt-get install cadical)");
  } else {
    assert.equal(cadical.status, 10, cadical.stderr);
    await page.fill("#model-text", cadical.stdout);
    await page.click("#decode");
    await page.waitForSelector("#decode-answer.ok");
    assert.deepEqual(await gridValues(page), solvedCells(PUZZLE));
    // A model of another formula is refused with the reason.
    await page.uncheck("#reduce");
    await page.click("#decode");
    await page.waitForSelector("#decode-answer.error");
  }
  await context.close();
});

test("Cancel stops a hard 25×25 within a second, and the next solve works", async () => {
  const { page, context } = await open();
  // The hardest example: cdcl needs seconds on it, so its progress is still on show when
  // looked for (a puzzle solved within the first tenth of a second shows none).
  await pickExample(page, "Gecode 4", "25×25");
  // cdcl's live line of progress: time, conflicts, decisions.
  await page.selectOption("#solver", "cdcl");
  await page.click("#solve");
  await page.waitForFunction(() => /^solving with cdcl: [0-9.]+ s, [0-9,]+ conflicts, [0-9,]+ decisions/
    .test(document.querySelector("#progress").textContent), null, { timeout: 20000 });
  // Stopped, unless it has answered meanwhile.
  await page.evaluate(() => document.querySelector("#cancel").disabled || document.querySelector("#cancel").click());
  await page.waitForFunction(() => !document.querySelector("#solve").disabled);
  // DLX takes minutes over this one: the cancel is timed on it.
  await page.selectOption("#solver", "dlx");
  await page.click("#solve");
  await page.waitForFunction(() => /^solving with dlx: .* steps/.test(document.querySelector("#progress").textContent), null, { timeout: 20000 });
  // Timed in the page, from the click to the worker ended and the buttons back (the
  // driver's own round trips are no part of what a user waits for).
  const stopped = await page.evaluate(() => {
    const start = performance.now();
    document.querySelector("#cancel").click();
    const done = document.querySelector("#progress").textContent === "cancelled"
      && !document.querySelector("#solve").disabled;
    return { done, millis: performance.now() - start };
  });
  assert.ok(stopped.done && stopped.millis < 1000, JSON.stringify(stopped));
  // The solve is over: no progress comes any more.
  await page.waitForTimeout(500);
  assert.equal(await page.textContent("#progress"), "cancelled");
  await page.fill("#puzzle-text", PUZZLE);
  await page.waitForFunction(() => document.querySelector("#puzzle-info").textContent.startsWith("9×9"));
  await page.selectOption("#solver", "cdcl");
  await page.click("#solve");
  await page.waitForSelector("#answer.ok");
  assert.deepEqual(await gridValues(page), solvedCells(PUZZLE));
  await context.close();
});

test("a time limit ends a solve with unknown", async () => {
  const { page, context } = await open();
  await pickExample(page, "Gecode 4", "25×25");
  await page.selectOption("#solver", "dlx");
  await page.fill("#timeout", "1");
  await page.click("#solve");
  await page.waitForFunction(() => document.querySelector("#answer").textContent.startsWith("unknown"), null, { timeout: 20000 });
  await context.close();
});

test("a malformed puzzle shows the parser's message with its line and column", async () => {
  const { page, context } = await open();
  await page.fill("#puzzle-text", "1 2 3 4\n3 4 x 2\n2 1 4 3\n4 3 2 1\n");
  await page.waitForSelector("#parse-error:not([hidden])");
  const message = await page.textContent("#parse-error");
  assert.match(message, /^line 2, column 5: /, message);
  await context.close();
});

test("the human solver's steps, one at a time, highlight the cells they touch", async () => {
  const { page, context } = await open(`#puzzle=${PUZZLE}`);
  await page.click("#show-steps");
  await page.waitForSelector("#steps:not([hidden])");
  assert.match(await page.textContent("#step-number"), /^step 1 of \d+/);
  const first = await page.textContent("#step-text");
  assert.ok(first.length > 0);
  assert.ok(await page.$$eval("#grid .cell.touched, #grid .cell.placed", (c) => c.length) > 0);
  await page.click("#step-next");
  assert.match(await page.textContent("#step-number"), /^step 2 of/);
  await context.close();
});

test("a link with the puzzle and solve=cdcl opens it solved", async () => {
  const { page, context } = await open(`#puzzle=${PUZZLE}&solve=cdcl`);
  await page.waitForSelector("#answer.ok");
  assert.deepEqual(await gridValues(page), solvedCells(PUZZLE));
  await context.close();
});

test("no horizontal scroll at 375 px, a 25×25 puzzle and the sizes table shown", async () => {
  const { page, context } = await open("", { width: 375, height: 800 });
  await pickExample(page, "25×25", "25×25");
  await page.waitForSelector("#sizes tbody tr:nth-child(20)");
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 375, `the page is ${width} px wide`);
  await context.close();
});
