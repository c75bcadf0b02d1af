// worker-memory.mjs — memory of one Worker isolate over many requests on workerd
// (Miniflare), ours (dist/worker: one long-lived Go instance) beside the AI SDK
// Worker (bench/ai-sdk-worker.mjs, a long-lived JS isolate), each in its own
// workerd, under the same load against the local mock model. A benchmark, not a
// test: it asserts only that every request succeeds and that one Go instance
// served them all.
//
//   ./build.sh bench memory [requests=30000]     build, measure, write bench/RESULTS.md
//   node bench/worker-memory.mjs [requests=30000] [concurrency=8] [every=5000]
//                                 (after ./build.sh worker; prints, writes nothing)
//   WORKER_DIR=<a built Worker folder> …   measure another build of ours (an older
//                                 one without GET /__test/gc shows no Go numbers)
//
// The requests cycle through a one-tool-turn POST /v1/run, the same run streamed
// (server-sent events), GET /v1/tools and GET /healthz. Every `every` requests
// it samples what is found:
//   - workerd's resident set (the whole process: Miniflare's entry worker,
//     tcmalloc's caches, which workerd does not hand back, JIT code; /proc);
//   - the Worker isolate's V8 heap (Runtime.getHeapUsage over V8's inspector:
//     used of total); "isolate" is that total plus the wasm memory (Go's
//     linear memory: it grows and never shrinks), which is what counts
//     against Cloudflare's 128 MB per isolate;
//   - ours: the wasm memory and the JS values Go holds (GET /__test/instance,
//     TOOLNEXUS_TEST_HOOKS=1).
// At the start and the end only it also collects: ours' GET /__test/gc runs
// Go's collector (its finalizers release the JS values Go held) and answers
// Go's heap in use, then V8 collects everything (fullGC). What is left is
// what the isolate really keeps: a leak shows as a rise from start to end.
// (A forced collection resets V8's heap sizing: done every sample it would
// flatten the very curve measured.)

import { readFileSync, writeFileSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startWorker, workerDir, workerdPids, workerdUsage } from "../tests/worker-harness.mjs";
import { startWorkerMock } from "../tests/worker-mock.mjs";

const MB = 2 ** 20;
const mb = (n, d = 1) => (n == null ? "–" : (n / MB).toFixed(d));

const freePort = () => new Promise((ok) => {
  const s = createServer().listen(0, "127.0.0.1", () => { const { port } = s.address(); s.close(() => ok(port)); });
});

// inspector sends V8 inspector commands to the Worker isolate (target
// "core:user:") on port, one connection per batch, in turn, and returns
// their results. Events (a heap snapshot's chunks) are dropped.
async function inspector(port, commands) {
  const { default: WebSocket } = await import("ws"); // miniflare's own dependency
  const targets = await (await fetch(`http://127.0.0.1:${port}/json`)).json();
  const target = targets.find((t) => t.id === "core:user:") ?? targets[0];
  const ws = new WebSocket(target.webSocketDebuggerUrl, { maxPayload: 1 << 30 });
  try {
    await new Promise((ok, fail) => { ws.once("open", ok); ws.once("error", fail); });
    const out = [];
    for (const [i, c] of commands.entries()) {
      const [method, params = {}] = Array.isArray(c) ? c : [c];
      out.push(await new Promise((ok, fail) => {
        const on = (m) => {
          const d = JSON.parse(m);
          if (d.id !== i + 1) return;
          ws.off("message", on);
          if (d.error) fail(new Error(`${method}: ${d.error.message}`));
          else ok(d.result);
        };
        ws.on("message", on);
        ws.send(JSON.stringify({ id: i + 1, method, params }));
      }));
    }
    return out;
  } finally {
    ws.close();
  }
}

// fullGC makes V8 collect everything it can. The workerd here never
// answered HeapProfiler.collectGarbage, so it takes a heap snapshot (V8
// collects first) and drops the chunks.
const fullGC = ["HeapProfiler.takeHeapSnapshot", { reportProgress: false }];

// load is the request cycle; every kind checks its answer.
function load(w) {
  const call = async (method, path, body) => {
    const init = { method, headers: {} };
    if (body) { init.body = JSON.stringify(body); init.headers["content-type"] = "application/json"; }
    const res = await fetch(new URL(path, w.url), init);
    return { status: res.status, text: await res.text() };
  };
  return [
    async (i) => {
      const r = await call("POST", "/v1/run", { prompt: `add ${i} and 1` });
      if (r.status !== 200 || JSON.parse(r.text).text !== `done: ${i + 1}`) throw new Error(`run ${i}: ${r.status} ${r.text.slice(0, 200)}`);
    },
    async (i) => {
      const r = await call("POST", "/v1/run", { prompt: `add ${i} and 2`, stream: true });
      if (r.status !== 200 || !r.text.includes(`"text":"done: ${i + 2}"`)) throw new Error(`stream ${i}: ${r.status} ${r.text.slice(0, 200)}`);
    },
    async () => {
      const r = await call("GET", "/v1/tools");
      if (r.status !== 200 || !r.text.includes('"add"')) throw new Error(`tools: ${r.status} ${r.text.slice(0, 200)}`);
    },
    async () => {
      const r = await call("GET", "/healthz");
      if (r.status !== 200) throw new Error(`healthz: ${r.status}`);
    },
  ];
}

// measureOne runs the load on one Worker folder and returns its samples;
// hooks: it is ours (TOOLNEXUS_TEST_HOOKS=1).
export async function measureOne(name, dir, { requests, concurrency, every, log, hooks }) {
  const mock = await startWorkerMock();
  const port = await freePort();
  const before = new Set(workerdPids());
  const w = await startWorker({
    LLM_BASE_URL: `${mock.url}/v1`, LLM_MODEL: "mock-model", LLM_API_KEY: "mem-key",
    STATE_SECRET: "mem-state-secret-0123456789abcdef", ...(hooks ? { TOOLNEXUS_TEST_HOOKS: "1" } : {}),
  }, { dir, inspectorPort: port });
  const pids = workerdPids().filter((p) => !before.has(p));
  const rows = [];
  try {
    const kinds = load(w);
    let instance;
    // sample reads what is found now; full (at the start and the end only:
    // a forced collection resets V8's heap sizing and would flatten the
    // curve it measures) also collects Go's garbage and then V8's.
    const sample = async (done, full) => {
      const rss = workerdUsage(pids).rssMB * MB;
      const [found] = await inspector(port, ["Runtime.getHeapUsage"]);
      let s = {};
      if (hooks) {
        const res = await fetch(new URL("/__test/instance", w.url));
        s = res.status === 200 ? await res.json() : {};
        instance ??= s.goInstance;
        if (s.goInstance !== instance) throw new Error("the Go instance was replaced");
      }
      const wasm = s.js?.memory ?? 0;
      const row = { requests: done, rss, used: found.usedSize, total: found.totalSize, wasm, isolate: found.totalSize + wasm, refs: s.js?.refs };
      if (full) {
        if (hooks) {
          const res = await fetch(new URL("/__test/gc", w.url));
          const go = res.status === 200 ? await res.json() : undefined; // an older build has no /__test/gc
          if (!go) await res.arrayBuffer();
          row.goHeap = go?.go?.heapInuse;
          row.refsAfterGC = go?.js?.refs;
        }
        const [, gc] = await inspector(port, [fullGC, "Runtime.getHeapUsage"]);
        row.usedAfterGC = gc.usedSize;
        row.totalAfterGC = gc.totalSize;
      }
      rows.push(row);
      const after = full ? `${mb(row.usedAfterGC)} of ${mb(row.totalAfterGC)}` : "";
      log(`${name.padEnd(6)} ${String(done).padStart(7)}  ${mb(rss).padStart(7)}  ${`${mb(row.used)} of ${mb(row.total)}`.padStart(13)}  ${mb(wasm).padStart(6)}  ${mb(row.isolate).padStart(7)}  ${String(row.refs ?? "–").padStart(5)}  ${after.padStart(13)}  ${full ? mb(row.goHeap).padStart(6) : ""}  ${full ? String(row.refsAfterGC ?? "–").padStart(5) : ""}`);
    };
    // One request starts the instance (Go's, or the module's) before the first sample.
    await kinds[3](0);
    await sample(0, true);
    let next = 0;
    for (let block = every; next < requests; block += every) {
      const end = Math.min(block, requests);
      await Promise.all(Array.from({ length: concurrency }, async () => {
        while (next < end) {
          const i = next++;
          await kinds[i % kinds.length](i);
        }
      }));
      await sample(end, end === requests);
    }
    return rows;
  } finally {
    await w.dispose();
    await mock.close();
  }
}

// measureWorkerMemory measures ours (dir) and then the AI SDK Worker (aiSdk,
// a folder from buildAiSdkWorker; built into a temporary folder when absent)
// under the same load, one after the other.
export async function measureWorkerMemory({ dir = workerDir, aiSdk, requests = 30_000, concurrency = 8, every = 5_000, log = console.error } = {}) {
  let tmp;
  if (!aiSdk) {
    const { buildAiSdkWorker } = await import("./worker.mjs");
    tmp = mkdtempSync(join(tmpdir(), "bench-ai-sdk-"));
    aiSdk = await buildAiSdkWorker(tmp);
  }
  const started = new Date().toISOString().slice(0, 16).replace("T", " ");
  try {
    log(`== ${requests} requests, ${concurrency} at a time, sampled every ${every}; load average ${loadavg().map((x) => x.toFixed(2)).join(" ")}`);
    log("worker  requests  RSS MB  V8 heap MB    wasm MB isolate MB  JS refs  after GC: V8 heap MB  Go heap MB  JS refs");
    const opts = { requests, concurrency, every, log };
    const ours = await measureOne("ours", dir, { ...opts, hooks: true });
    const peer = await measureOne("ai-sdk", aiSdk, { ...opts, hooks: false });
    return { requests, concurrency, every, started, load: loadavg()[0], ours, peer };
  } finally {
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  }
}

// memoryLines is the markdown section of RESULTS.md for a measurement.
export function memoryLines(m, { command }) {
  const L = [];
  const row = (...c) => L.push(`| ${c.join(" | ")} |`);
  L.push("## Worker memory (workerd, one isolate)", "",
    `\`${command}\` (bench/worker-memory.mjs): ${m.requests} requests, ${m.concurrency} at a time, cycling through a one-tool-turn`,
    "POST /v1/run, the same run streamed, GET /v1/tools and GET /healthz, against the local mock model; ours (one Go",
    "instance serves every request) and then the AI SDK Worker (bench/ai-sdk-worker.mjs), each in its own workerd.",
    "*Isolate* is V8's heap total as found plus the wasm memory (what counts against Cloudflare's 128 MB per isolate).",
    "RSS is the whole workerd process (Miniflare's entry worker, tcmalloc's caches, JIT code included).",
    "V8's heap total is mostly garbage awaiting a major collection: what the isolate keeps is the *after a full",
    `collection* table below. Run ${m.started ?? "–"} UTC; load average ${m.load?.toFixed(1) ?? "–"} on this machine at the end.`, "");
  row("requests", "ours RSS", "ours V8 heap used / total", "ours wasm", "ours isolate", "AI SDK RSS", "AI SDK V8 heap used / total", "AI SDK isolate", "isolate ours / AI SDK");
  row(...Array(9).fill("---"));
  for (const [i, o] of m.ours.entries()) {
    const p = m.peer[i] ?? {};
    row(o.requests, `${mb(o.rss)} MB`, `${mb(o.used)} / ${mb(o.total)} MB`, `${mb(o.wasm)} MB`, `${mb(o.isolate)} MB`,
      `${mb(p.rss)} MB`, `${mb(p.used)} / ${mb(p.total)} MB`, `${mb(p.isolate)} MB`, p.isolate ? `${(o.isolate / p.isolate).toFixed(2)}x` : "–");
  }
  L.push("");
  const s = summary(m);
  const o0 = m.ours[0], o1 = m.ours.at(-1), p0 = m.peer[0], p1 = m.peer.at(-1);
  L.push("After a full collection (ours: Go's collector first, which releases the JS values Go held), at the start",
    "and after the last request:", "");
  row("", "V8 heap used", "Go heap in use", "JS values Go holds", "wasm memory");
  row(...Array(5).fill("---"));
  row("ours, start", `${mb(o0.usedAfterGC)} MB`, `${mb(o0.goHeap)} MB`, o0.refsAfterGC ?? "–", `${mb(o0.wasm)} MB`);
  row(`ours, after ${m.requests}`, `${mb(o1.usedAfterGC)} MB`, `${mb(o1.goHeap)} MB`, o1.refsAfterGC ?? "–", `${mb(o1.wasm)} MB`);
  row("AI SDK, start", `${mb(p0.usedAfterGC)} MB`, "–", "–", "–");
  row(`AI SDK, after ${m.requests}`, `${mb(p1.usedAfterGC)} MB`, "–", "–", "–");
  L.push("", `Target (issue 24): ours' isolate after warm-up ≤ the AI SDK Worker's + the wasm memory: ${mb(s.oursIsolateMax)} MB ≤ ` +
    `${mb(s.peerIsolateMax)} + ${mb(s.oursWasmMax)} = ${mb(s.peerIsolateMax + s.oursWasmMax)} MB: ${s.met ? "**met**" : "**missed**"}.`, "");
  return L;
}

// summary compares the two curves after warm-up (samples from `every` on).
export function summary(m) {
  const after = (rows) => rows.filter((r) => r.requests >= m.every);
  const max = (rows, k) => Math.max(...rows.map((r) => r[k]));
  const min = (rows, k) => Math.min(...rows.map((r) => r[k]));
  const o = after(m.ours), p = after(m.peer);
  const out = {
    oursIsolate: [min(o, "isolate"), max(o, "isolate")], peerIsolate: [min(p, "isolate"), max(p, "isolate")],
    oursIsolateMax: max(o, "isolate"), peerIsolateMax: max(p, "isolate"), oursWasmMax: max(o, "wasm"),
    oursRss: [min(o, "rss"), max(o, "rss")], peerRss: [min(p, "rss"), max(p, "rss")],
  };
  out.met = out.oursIsolateMax <= out.peerIsolateMax + out.oursWasmMax;
  return out;
}

// writeSection replaces (or appends) the memory section of bench/RESULTS.md.
export function writeSection(file, lines) {
  const text = readFileSync(file, "utf8");
  const start = text.indexOf("## Worker memory");
  let out;
  if (start < 0) out = text.replace(/\n*$/, "\n\n") + lines.join("\n") + "\n";
  else {
    const end = text.indexOf("\n## ", start + 3);
    out = text.slice(0, start) + lines.join("\n") + "\n" + (end < 0 ? "" : text.slice(end + 1));
  }
  writeFileSync(file, out);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2).filter((a) => a !== "--write");
  const requests = Number(args[0] ?? 30_000), concurrency = Number(args[1] ?? 8), every = Number(args[2] ?? 5_000);
  const m = await measureWorkerMemory({ dir: process.env.WORKER_DIR ?? workerDir, requests, concurrency, every });
  const s = summary(m);
  const range = ([a, b]) => `${mb(a)}–${mb(b)} MB`;
  console.log(memoryLines(m, { command: `node bench/worker-memory.mjs ${requests} ${concurrency} ${every}` }).join("\n"));
  console.log(`after warm-up: isolate ours ${range(s.oursIsolate)}, AI SDK ${range(s.peerIsolate)}; RSS ours ${range(s.oursRss)}, AI SDK ${range(s.peerRss)}`);
  if (process.argv.includes("--write")) {
    const file = fileURLToPath(new URL("RESULTS.md", import.meta.url));
    writeSection(file, memoryLines(m, { command: `./build.sh bench memory ${requests}` }));
    console.error(`wrote the memory section of ${file}`);
  }
}
