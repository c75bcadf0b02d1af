// browser-entry.mjs — the page side of browser.mjs, bundled for the browser
// with esbuild: the loop of loop.mjs (same contenders, same scripted model,
// same checks) run in a page. benchLoop resolves to the median ms per turn.

import { checkedLoop, median } from "./checked-loop.mjs";
import { TURNS } from "./fake-model.mjs";

globalThis.benchLoop = async (name, historyLength, runs, warmup) => {
  const dist = new URL("../", location.href); // the served folder holds web/ and bench-page/
  const { one, warm } = await checkedLoop(name, historyLength, dist);
  await warm(warmup);
  const ms = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await one();
    ms.push(performance.now() - t);
  }
  return median(ms) / TURNS;
};
