// load.mjs — the page side of browser.mjs's start-up measurement: fetch →
// ready for ?what=ours (toolnexus.mjs's load()) or ?what=minimal (the
// minimal Go program, loaded the standard way). wasm_exec.js and
// toolnexus.mjs are loaded before the clock starts, for both.

import { load } from "../web/toolnexus.mjs";

const what = new URLSearchParams(location.search).get("what");
const t0 = performance.now();
if (what === "ours") {
  await load();
} else {
  const go = new globalThis.Go();
  const { instance } = await WebAssembly.instantiateStreaming(fetch("minimal.wasm"), go.importObject);
  go.run(instance);
  if (globalThis.minimalReady !== true) throw new Error("minimal.wasm did not set its global");
}
globalThis.benchLoaded = performance.now() - t0;
