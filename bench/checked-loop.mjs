// checked-loop.mjs — one contender's run of issue 7's scenario, checked: the
// part loop.mjs (Node) and browser-entry.mjs (a page) share. checkedLoop
// returns one(), which runs the loop once and throws unless it made exactly
// TURNS model calls and TURNS-1 tool runs and ended "done"; warm(n) runs it n
// times with every request the model receives checked.

import { contenders } from "./contenders.mjs";
import { fakeModel, history, TURNS } from "./fake-model.mjs";

export async function checkedLoop(name, historyLength, dist) {
  const model = fakeModel({ historyLength });
  let toolRuns = 0;
  const runOnce = await contenders[name]({ fetch: model.fetch, history: history(historyLength), onTool: () => toolRuns++, dist });
  const one = async () => {
    model.reset();
    toolRuns = 0;
    const text = await runOnce();
    if (text !== "done" || model.calls !== TURNS || toolRuns !== TURNS - 1) {
      throw new Error(`${name}: broken loop: text ${JSON.stringify(text)}, ${model.calls} model calls, ${toolRuns} tool runs`);
    }
  };
  const warm = async (n) => {
    model.check = true;
    for (let i = 0; i < n; i++) await one();
    model.check = false;
    if (model.errors.length) throw new Error(`${name}: bad requests: ${model.errors.slice(0, 3).join("; ")}`);
  };
  return { one, warm };
}

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
