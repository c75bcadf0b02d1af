// cpuprofile.mjs — reads a V8 CPU profile (.cpuprofile: node --cpu-prof, CDP
// Profiler.stop in chromium or workerd) into self-time shares by function and
// by area, and inclusive shares of Go functions (the wasm's name section
// names them when the build is unstripped). profile.mjs and
// worker-profile.mjs print them.

import { readFileSync } from "node:fs";
import { basename } from "node:path";

const TOP = Number(process.env.PROFILE_TOP ?? 25);

export function area(frame) {
  const { url, functionName } = frame;
  if (url.startsWith("wasm://") || url.endsWith(".wasm")) return functionName.startsWith("runtime.") || functionName.startsWith("runtime/") ? "Go runtime (wasm)" : "Go code (wasm)";
  if (url.endsWith("wasm_exec.js")) return "wasm_exec.js (JS⇄Go glue)";
  if (/\/(worker|bridge-host|runs|ledger)\.mjs$/.test(url) && !url.includes("/web/")) return "the Worker's JS (worker.mjs, bridge-host.mjs)";
  if (url.includes("/web/") || /\/toolnexus\.mjs$/.test(url)) return "toolnexus.mjs";
  if (/\/(demo|demo-[a-z]+|approval-dialog)\.mjs$/.test(url)) return "demo page modules";
  if (url.includes("/bench/")) return "bench harness + fake model";
  if (url.startsWith("node:") || url === "") return functionName.startsWith("(") ? functionName : "engine internals (Node: Response, streams, promises)";
  return "other JS";
}

// summarize reads a .cpuprofile and returns self-time shares by function and by area.
// Each sample weighs its time delta, or 1 with perSample (workerd's sampler
// skips the time its isolate is not entered, so a delta there spans idle
// time as well).
export function summarize(file, { perSample = false } = {}) {
  const prof = typeof file === "string" ? JSON.parse(readFileSync(file, "utf8")) : file;
  const weight = (i) => (perSample ? 1 : prof.timeDeltas[i] ?? 0);
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const self = new Map();
  prof.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + weight(i)));
  const fns = new Map(), areas = new Map();
  let total = 0;
  for (const [id, us] of self) {
    const f = byId.get(id).callFrame;
    if (f.functionName === "(idle)") continue;
    total += us;
    const key = `${f.functionName || "(anonymous)"} ${f.url ? basename(f.url) : ""}${f.url && !f.url.startsWith("wasm") ? `:${f.lineNumber + 1}` : ""}`;
    fns.set(key, (fns.get(key) ?? 0) + us);
    areas.set(area(f), (areas.get(area(f)) ?? 0) + us);
  }
  // Inclusive time: each sample counts once for every function on its stack.
  const parent = new Map();
  for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const incl = new Map();
  prof.samples.forEach((id, i) => {
    if (byId.get(id).callFrame.functionName === "(idle)") return;
    const seen = new Set();
    for (let n = id; n != null; n = parent.get(n)) {
      const name = byId.get(n).callFrame.functionName;
      if (name && !seen.has(name)) { seen.add(name); incl.set(name, (incl.get(name) ?? 0) + weight(i)); }
    }
  });
  const pct = (m) => [...m].sort((a, b) => b[1] - a[1]).map(([k, us]) => `${(100 * us / total).toFixed(1).padStart(5)}%  ${k}`);
  const goIncl = new Map([...incl].filter(([k]) => /^(github\.com_toolnexus|syscall_js|encoding_json|github\.com_tidwall)/.test(k)));
  return { areas: pct(areas), top: pct(fns).slice(0, TOP), inclusive: pct(goIncl).slice(0, TOP) };
}

