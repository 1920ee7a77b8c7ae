// The screenshots of docs/playground.md, taken in Debian's headless Chromium from the
// site `scripts/web.sh build` made: node web/tools/screenshots.mjs [SITE] [OUT]
// (defaults target/web and docs/playground).
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { launchChromium, serveSite } from "./browser.mjs";

const out = resolve(process.argv[3] || "docs/playground");
mkdirSync(out, { recursive: true });
const { server, base } = await serveSite(process.argv[2] || "target/web");
const browser = await launchChromium();
const PUZZLE = "800000000003600000070090200050007000000045700000100030001000068008500010090000400";
try {
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  const ready = () => page.waitForSelector("body[data-ready=true]", { timeout: 60000 });

  await page.goto(`${base}#puzzle=${PUZZLE}`);
  await ready();
  await page.waitForSelector("#sizes tbody tr:nth-child(20)");
  await page.selectOption("#family-filter", "pairwise");
  await page.locator("#sizes-view").screenshot({ path: join(out, "sizes.png") });

  await page.fill("#puzzle-text", "1 2 3 4\n3 4 x 2\n2 1 4 3\n4 3 2 1\n");
  await page.waitForSelector("#parse-error:not([hidden])");
  await page.locator("#input-view").screenshot({ path: join(out, "error.png") });

  await page.goto(`${base}#puzzle=${PUZZLE}`);
  await page.reload();
  await ready();
  await page.click("#show-steps");
  await page.waitForSelector("#steps:not([hidden])");
  for (let k = 0; k < 3; k++) await page.click("#step-next");
  await page.screenshot({ path: join(out, "steps.png") });

  await page.goto(base);
  await page.reload();
  await ready();
  const hard = await page.evaluate(() => EXAMPLES.findIndex((e) => e.name.includes("Gecode 1")));
  await page.selectOption("#examples", String(hard));
  await page.waitForFunction(() => document.querySelector("#puzzle-info").textContent.startsWith("25×25"));
  await page.click("#solve");
  await page.waitForSelector("#answer.ok", { timeout: 120000 });
  await page.screenshot({ path: join(out, "solve.png") });
} finally {
  await browser.close();
  server.close();
}
