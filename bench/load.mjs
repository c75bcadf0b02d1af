// load.mjs — the page side of browser.mjs's start-up measurement: fetch →
// ready for ?what=ours (toolnexus.mjs's load()) or ?what=minimal (the
// minimal Go program, loaded the standard way). wasm_exec.js and
// toolnexus.mjs are loaded before the clock starts, for both.

import { load } from "../web/toolnexus.mjs";

const what = new URLSearchParams(location.search).get("what");
const t0 = performance.now();
let instantiated;
if (what === "ours") {
  await load();
  instantiated = performance.getEntriesByName("toolnexus:wasm-loaded")[0]?.startTime - t0;
} else {
  const go = new globalThis.Go();
  // ?minimal=NAME: startup.mjs serves it under a content-hashed name, as ours.
  const name = new URLSearchParams(location.search).get("minimal") ?? "minimal.wasm";
  const { instance } = await WebAssembly.instantiateStreaming(fetch(name), go.importObject);
  instantiated = performance.now() - t0;
  go.run(instance);
  if (globalThis.minimalReady !== true) throw new Error("minimal.wasm did not set its global");
}
globalThis.benchLoaded = performance.now() - t0;
globalThis.benchInstantiated = instantiated; // fetch → instance made; the rest is Go's start
