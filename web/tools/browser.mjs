// What the page's tests, its benchmark and its screenshots share: the built site served on
// 127.0.0.1 (a port the system picks) and Debian's Chromium, headless, driven by
// playwright-core (which downloads no browser).
import { createServer } from "node:http";
import { existsSync, readFileSync } from "node:fs";
import { extname, join, resolve } from "node:path";
import { chromium } from "playwright-core";

const MIME = {
  ".html": "text/html", ".js": "text/javascript", ".css": "text/css",
  ".wasm": "application/wasm",
};

/** Serves the files of `site`; resolves to the server and its address (`http://…/`). */
export async function serveSite(site) {
  const root = resolve(site);
  const server = createServer((req, res) => {
    const path = join(root, decodeURIComponent(new URL(req.url, "http://x").pathname));
    const file = path.endsWith("/") ? join(path, "index.html") : path;
    if (!file.startsWith(root) || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "content-type": MIME[extname(file)] || "application/octet-stream" });
    res.end(readFileSync(file));
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  return { server, base: `http://127.0.0.1:${server.address().port}/` };
}

/** Debian's Chromium (CHROMIUM names another), with the flags a root run without a
 * display, a GPU or network services needs. */
export function launchChromium() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: [
      "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync",
    ],
  });
}
