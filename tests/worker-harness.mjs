// worker-harness.mjs — start the built Worker (dist/worker) on workerd through
// Miniflare's Node API, for the Worker tests and the latency measurement.
//
//   const w = await startWorker({ LLM_BASE_URL: …, … }, { kv: true });
//   try { const r = await w.call("POST", "/v1/run", { body: { prompt: "hi" } }); }
//   finally { await w.dispose(); }
//
// w.call returns {status, headers, text, json}; w.output holds what the Worker
// wrote to stdout/stderr (Go's log lines).

import { readFileSync, readdirSync, existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Miniflare } from "miniflare";

const here = dirname(fileURLToPath(import.meta.url));
export const dist = resolve(process.env.TOOLNEXUS_DIST ?? join(here, "..", "dist"));
export const workerDir = join(dist, "worker");
export const buildDir = join(workerDir, "build");

// compatibilityDate is the one ./build.sh worker wrote into wrangler.jsonc, so the
// tests run the Worker exactly as `wrangler deploy` would configure it.
export function compatibilityDate(dir = workerDir) {
  return compatibility(dir).date;
}

// compatibility reads what the wrangler.jsonc in dir says: the compatibility
// date and flags, the main module (relative to dir) and whether it binds the
// APPROVALS ledger.
export function compatibility(dir = workerDir) {
  const config = join(dir, "wrangler.jsonc");
  if (!existsSync(config)) throw new Error(`no Worker build in ${dir}: run ./build.sh worker first`);
  const text = readFileSync(config, "utf8");
  const m = text.match(/"compatibility_date"\s*:\s*"(\d{4}-\d{2}-\d{2})"/);
  if (!m) throw new Error(`no compatibility_date in ${config}`);
  const main = text.match(/"main"\s*:\s*"([^"]+)"/)?.[1] ?? "./build/worker.mjs";
  if (!existsSync(join(dir, main))) throw new Error(`no Worker build in ${dir}: run ./build.sh worker first`);
  const flags = text.match(/"compatibility_flags"\s*:\s*\[([^\]]*)\]/)?.[1].match(/"[^"]+"/g)?.map((f) => f.slice(1, -1)) ?? [];
  return { date: m[1], flags, main, approvals: /"class_name"\s*:\s*"ApprovalLedger"/.test(text), runs: /"class_name"\s*:\s*"RunLog"/.test(text) };
}

// startWorker starts one Worker with env as its bindings (vars and secrets).
// kv: true binds an in-memory KV namespace as STATE_KV; an array binds the
// namespaces it names. r2 binds the R2 buckets it names. approvals (default:
// whether the folder's wrangler.jsonc declares it, as the generated one does)
// binds the ApprovalLedger Durable Object, SQLite-backed, as APPROVALS.
// w.kv(name), w.r2(name) and w.ledger(id) (the ledger object for one state
// token id, an RPC stub) reach a binding from the test; w.direct is a URL
// that reaches the Worker without Miniflare's entry worker. dir is the built
// Worker's folder (wrangler.jsonc and build/; dist/worker by default).
// inspectorPort opens V8's inspector there (w.heapUsage() reads the Worker
// isolate's JS heap through it).
// runs (default: whether wrangler.jsonc declares it) binds the RunLog Durable
// Object as RUNS; persist, a folder, keeps every Durable Object's storage there
// (durableObjectsPersist), so a Worker started again on it finds it.
// port (default 0: any free one) lets a Worker started again on persisted
// storage keep the address its runs' approval links name.
export async function startWorker(env, { kv = false, r2 = [], dir = workerDir, approvals, runs, persist, inspectorPort, port = 0 } = {}) {
  const kvNamespaces = Array.isArray(kv) ? kv : kv ? ["STATE_KV"] : [];
  const output = [];
  const { date, flags, main, approvals: declared, runs: runsDeclared } = compatibility(dir);
  approvals ??= declared;
  runs ??= runsDeclared;
  const build = join(dir, "build");
  const mf = new Miniflare({
    modules: true,
    scriptPath: join(dir, main),
    modulesRoot: build,
    modulesRules: [{ type: "CompiledWasm", include: ["**/*.wasm"] }],
    compatibilityDate: date,
    compatibilityFlags: flags,
    bindings: env,
    kvNamespaces,
    r2Buckets: r2,
    durableObjects: {
      ...(approvals ? { APPROVALS: { className: "ApprovalLedger", useSQLite: true } } : {}),
      ...(runs ? { RUNS: { className: "RunLog", useSQLite: true } } : {}),
    },
    ...(persist ? { durableObjectsPersist: persist } : {}),
    cf: false,
    host: "127.0.0.1",
    port,
    // A socket straight to the Worker, without Miniflare's entry worker in
    // between: a client that goes away there reaches the Worker (w.direct).
    unsafeDirectSockets: [{ host: "127.0.0.1", port: 0 }],
    ...(inspectorPort ? { inspectorPort } : {}),
    handleRuntimeStdio(stdout, stderr) {
      stdout.on("data", (c) => output.push(String(c)));
      stderr.on("data", (c) => output.push(String(c)));
    },
  });
  let url;
  try {
    url = await mf.ready;
  } catch (err) {
    await mf.dispose().catch(() => {});
    throw err;
  }
  const direct = await mf.unsafeGetDirectURL();
  return {
    url,
    direct,
    output,
    dispose: () => mf.dispose(),
    kv: (name) => mf.getKVNamespace(name),
    r2: (name) => mf.getR2Bucket(name),
    // heapUsage is Runtime.getHeapUsage of the Worker's isolate:
    // {usedSize, totalSize, …} in bytes. collect: true first makes V8
    // collect all it can (workerd here never answers
    // HeapProfiler.collectGarbage; a heap snapshot collects first, and its
    // chunks are dropped).
    async heapUsage({ collect = false } = {}) {
      const { default: WebSocket } = await import("ws"); // miniflare's own dependency
      const targets = await (await fetch(`http://127.0.0.1:${inspectorPort}/json`)).json();
      const target = targets.find((t) => t.id === "core:user:") ?? targets[0];
      const ws = new WebSocket(target.webSocketDebuggerUrl, { maxPayload: 1 << 30 });
      try {
        await new Promise((ok, fail) => { ws.once("open", ok); ws.once("error", fail); });
        return await new Promise((ok) => {
          ws.on("message", (m) => { const d = JSON.parse(m); if (d.id === 2) ok(d.result); });
          if (collect) ws.send(JSON.stringify({ id: 1, method: "HeapProfiler.takeHeapSnapshot", params: { reportProgress: false } }));
          ws.send(JSON.stringify({ id: 2, method: "Runtime.getHeapUsage" }));
        });
      } finally {
        ws.close();
      }
    },
    async ledger(id) {
      const ns = await mf.getDurableObjectNamespace("APPROVALS");
      return ns.get(ns.idFromName(id));
    },
    async call(method, path, { body, headers = {} } = {}) {
      const init = { method, headers: { ...headers } };
      if (body !== undefined) {
        init.body = typeof body === "string" ? body : JSON.stringify(body);
        init.headers["content-type"] ??= "application/json";
      }
      const res = await fetch(new URL(path, url), init);
      const text = await res.text();
      let json;
      try { json = text ? JSON.parse(text) : undefined; } catch { json = undefined; }
      return { status: res.status, headers: res.headers, text, json };
    },
  };
}

// workerdPids lists the workerd processes this Node process started (one per
// running Miniflare).
export function workerdPids() {
  const out = [];
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, "utf8");
      const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (comm.includes("workerd") && ppid === process.pid) out.push(Number(d));
    } catch { /* the process ended */ }
  }
  return out;
}

// workerdUsage sums the CPU time (user + system, all threads, in ms) and the
// resident set (MB) of the given workerd processes, from /proc.
export function workerdUsage(pids = workerdPids()) {
  const tick = 100; // USER_HZ on Linux
  let cpuMs = 0, rssKB = 0;
  for (const p of pids) {
    try {
      const stat = readFileSync(`/proc/${p}/stat`, "utf8");
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      cpuMs += ((Number(f[11]) + Number(f[12])) * 1000) / tick; // utime, stime
      rssKB += Number(readFileSync(`/proc/${p}/status`, "utf8").match(/VmRSS:\s+(\d+)/)[1]);
    } catch { /* gone */ }
  }
  return { cpuMs, rssMB: rssKB / 1024 };
}
