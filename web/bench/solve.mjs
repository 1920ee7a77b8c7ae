// The page's solves timed in the browser, for scripts/bench/web.py: Debian's Chromium
// loads the built site from a server on 127.0.0.1, and each puzzle of each file goes to the
// page's solving worker, as the Solve button sends it. Prints one JSON object: for each
// file, each puzzle's milliseconds (measured in the worker around the library's call) and
// counters.
//
// Usage: node web/bench/solve.mjs SITE SOLVER FILE...
import { readFileSync } from "node:fs";
import { launchChromium, serveSite } from "../tools/browser.mjs";

const [site, solverName, ...files] = process.argv.slice(2);
const { server, base } = await serveSite(site);
const browser = await launchChromium();
try {
  const page = await browser.newPage();
  await page.goto(base);
  await page.waitForSelector("body[data-ready=true]", { timeout: 60000 });
  const out = {};
  for (const file of files) {
    const puzzles = readFileSync(file, "utf8").split("\n").filter((l) => l.trim() && !l.startsWith("#"));
    out[file] = await page.evaluate(async ([puzzles, name]) => {
      const runs = [];
      for (const p of puzzles) {
        const answer = await solver.call("solve", [p, name, 0]);
        if (answer.outcome !== "solved" || !answer.valid) throw new Error(`${p}: ${JSON.stringify(answer)}`);
        runs.push({ millis: answer.millis, conflicts: answer.counters.conflicts ?? null });
      }
      return runs;
    }, [puzzles, solverName]);
  }
  console.log(JSON.stringify(out));
} finally {
  await browser.close();
  server.close();
}
