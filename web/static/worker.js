// The library's calls off the page's thread. scripts/web.sh puts this file after the
// glue wasm-bindgen writes (`--target no-modules`, which defines `wasm_bindgen`); the page
// starts it from that text and hands it the compiled module, so no worker fetches anything.
"use strict";

self.onmessage = (event) => {
  const { id, op, args } = event.data;
  if (op === "init") {
    wasm_bindgen.initSync({ module: args.module });
    self.postMessage({ id, result: {} });
    return;
  }
  let text;
  try {
    if (op === "solve") {
      const progress = (line) => self.postMessage({ id, progress: JSON.parse(line) });
      text = wasm_bindgen.solve(args[0], args[1], args[2], progress);
    } else {
      text = wasm_bindgen[op](...args);
    }
  } catch (e) {
    // A panic in the library ends this instance: the page starts a fresh worker.
    self.postMessage({ id, result: { error: `the solver stopped on an internal error: ${e}` }, broken: true });
    return;
  }
  self.postMessage({ id, result: JSON.parse(text) });
};
