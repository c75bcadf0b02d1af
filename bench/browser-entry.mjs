// browser-entry.mjs — the page side of browser.mjs, bundled for the browser
// with esbuild: the loop of loop.mjs (same contenders, same scripted model,
// same checks) run in a page. benchLoop resolves to the median ms per turn.

import { contenders } from "./contenders.mjs";
import { fakeModel, history, TURNS } from "./fake-model.mjs";

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

globalThis.benchLoop = async (name, historyLength, runs, warmup) => {
  const model = fakeModel({ historyLength });
  let toolRuns = 0;
  const dist = new URL("../", location.href); // the served folder holds web/ and bench-page/
  const runOnce = await contenders[name]({ fetch: model.fetch, history: history(historyLength), onTool: () => toolRuns++, dist });
  const one = async () => {
    model.reset();
    toolRuns = 0;
    const text = await runOnce();
    if (text !== "done" || model.calls !== TURNS || toolRuns !== TURNS - 1) {
      throw new Error(`${name}: broken loop: text ${JSON.stringify(text)}, ${model.calls} model calls, ${toolRuns} tool runs`);
    }
  };
  model.check = true;
  for (let i = 0; i < warmup; i++) await one();
  model.check = false;
  if (model.errors.length) throw new Error(`${name}: bad requests: ${model.errors.slice(0, 3).join("; ")}`);
  const ms = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await one();
    ms.push(performance.now() - t);
  }
  return median(ms) / TURNS;
};
