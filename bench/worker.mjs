// worker.mjs — the Worker build on workerd (Miniflare, tests/worker-harness.mjs)
// against the local mock model (tests/worker-mock.mjs): per-request latency of
// GET /healthz and of a one-tool-turn POST /v1/run ("add 2 and 3": model → add
// → model), then requests per second under wrk (8 connections, 10 s each,
// 127.0.0.1 only) with the error count.
//
// measureWorkerCpu is the CPU time of the workerd process (all threads, from
// /proc/<pid>/task/*/schedstat) per request, side by side with a syumai/workers
// hello-world built the standard way (bench/syumai-hello: a fresh Go instance
// per request), the AI SDK Worker (bench/ai-sdk-worker.mjs on ai 7 and on ai
// 6) and a hand-written floor (bench/floor-worker.mjs), in interleaved rounds.
// measureColdStart is a fresh workerd's first POST /v1/run, wall and CPU
// (schedstat: nanoseconds), ours beside the same peers.
//
//   node bench/worker.mjs [runs=50]      (after ./build.sh worker; needs wrk)
//   node bench/worker.mjs cpu [hello dir] [other Worker dir…]
//                                        CPU per request only: ours (dist/worker),
//                                        the AI SDK Workers (ai 7 and ai 6) and the
//                                        hand-written floor (bundled here), the
//                                        hello-world (./build.sh bench builds it
//                                        into dist/bench/syumai-hello; "" for none)
//                                        and any other built Worker folder
//                                        (wrangler.jsonc and build/, e.g. an older build)
//   node bench/worker.mjs cold [starts=10]
//                                        a fresh workerd's first POST /v1/run, ours
//                                        beside the same peers, interleaved

import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { compatibility, startWorker, workerDir, workerdPids } from "../tests/worker-harness.mjs";
import { startWorkerMock } from "../tests/worker-mock.mjs";
import { median } from "./loop.mjs";

const RUN_BODY = JSON.stringify({ prompt: "add 2 and 3" });

// wrk runs wrk and reads requests/s and the error counts from its report.
async function wrk(url, { post } = {}) {
  const dir = mkdtempSync(join(tmpdir(), "bench-wrk-"));
  const args = ["-t2", "-c8", "-d10s", "--timeout", "10s"];
  if (post) {
    const script = join(dir, "post.lua");
    writeFileSync(script, `wrk.method = "POST"\nwrk.body = ${JSON.stringify(post)}\nwrk.headers["Content-Type"] = "application/json"\n`);
    args.push("-s", script);
  }
  try {
    const { stdout } = await promisify(execFile)("wrk", [...args, url], { timeout: 60_000 });
    const num = (re) => Number(stdout.match(re)?.[1] ?? 0);
    const sock = stdout.match(/Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/);
    const socketErrors = sock ? sock.slice(1).reduce((a, b) => a + Number(b), 0) : 0;
    return {
      rps: num(/Requests\/sec:\s+([\d.]+)/),
      requests: num(/(\d+) requests in/),
      non2xx: num(/Non-2xx or 3xx responses: (\d+)/),
      socketErrors,
      errors: num(/Non-2xx or 3xx responses: (\d+)/) + socketErrors,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function measureWorker(runs = 50) {
  const mock = await startWorkerMock();
  let worker;
  try {
    worker = await startWorker({
      LLM_BASE_URL: `${mock.url}/v1`, LLM_MODEL: "mock-model", LLM_API_KEY: "bench-key",
      STATE_SECRET: "bench-state-secret-0123456789abcdef",
    });
    const health = async () => {
      const res = await worker.call("GET", "/healthz");
      if (res.status !== 200) throw new Error(`bad /healthz: ${res.status}`);
    };
    const oneToolTurn = async () => {
      const res = await worker.call("POST", "/v1/run", { body: RUN_BODY });
      if (res.status !== 200 || res.json?.text !== "done: 5") throw new Error(`bad /v1/run: ${res.status} ${res.text}`);
    };
    const latency = async (fn) => {
      for (let i = 0; i < 5; i++) await fn(); // warm up: the first request starts the Go instance
      const ms = [];
      for (let i = 0; i < runs; i++) {
        const t = performance.now();
        await fn();
        ms.push(performance.now() - t);
      }
      ms.sort((a, b) => a - b);
      return { runs, median: median(ms), p90: ms[Math.floor(0.9 * (ms.length - 1))], min: ms[0] };
    };
    return {
      healthz: await latency(health),
      run: await latency(oneToolTurn),
      wrkHealthz: await wrk(new URL("/healthz", worker.url).href),
      wrkRun: await wrk(new URL("/v1/run", worker.url).href, { post: RUN_BODY }),
    };
  } finally {
    await worker?.dispose();
    await mock.close();
  }
}

// buildAiSdkWorker bundles bench/ai-sdk-worker.mjs (the same run with the
// Vercel AI SDK) with esbuild into out (wrangler.jsonc and build/worker.mjs,
// with our Worker's compatibility date) and returns out. six: the AI SDK 6
// (bench/package.json's ai6) in place of the newest.
export async function buildAiSdkWorker(out, { six = false } = {}) {
  return bundleWorker("ai-sdk-worker.mjs", out, six ? { ai: "ai6", "@ai-sdk/openai-compatible": "@ai-sdk/openai-compatible-2" } : {});
}

// buildFloorWorker writes bench/floor-worker.mjs (the run by hand over
// fetch) as a Worker folder into out and returns out.
export async function buildFloorWorker(out) {
  return bundleWorker("floor-worker.mjs", out, {});
}

async function bundleWorker(entry, out, alias) {
  const { build } = await import("esbuild");
  mkdirSync(join(out, "build"), { recursive: true });
  await build({
    entryPoints: [fileURLToPath(new URL(entry, import.meta.url))], bundle: true, format: "esm",
    platform: "browser", conditions: ["workerd", "worker", "browser"], minify: true, alias,
    absWorkingDir: fileURLToPath(new URL(".", import.meta.url)), // aliases resolve from bench/
    outfile: join(out, "build", "worker.mjs"), logLevel: "warning",
  });
  writeFileSync(join(out, "wrangler.jsonc"), JSON.stringify({ name: entry.replace(/\.mjs$/, ""), main: "./build/worker.mjs", compatibility_date: compatibility().date }, null, 2) + "\n");
  return out;
}

// peerWorkers builds the Workers ours is measured beside into folders under
// tmp: the AI SDK Worker (newest, "ai-sdk"), the same on AI SDK 6
// ("ai-sdk-6") and the hand-written floor ("floor").
export async function peerWorkers(tmp) {
  return {
    "ai-sdk": await buildAiSdkWorker(join(tmp, "ai-sdk")),
    "ai-sdk-6": await buildAiSdkWorker(join(tmp, "ai-sdk-6"), { six: true }),
    floor: await buildFloorWorker(join(tmp, "floor")),
  };
}

const WORKER_ENV = (mock) => ({
  LLM_BASE_URL: `${mock.url}/v1`, LLM_MODEL: "mock-model", LLM_API_KEY: "bench-key",
  STATE_SECRET: "bench-state-secret-0123456789abcdef",
});

// measureWorkerCpu measures CPU per request of each contender's workerd:
// ours (dir) for GET /healthz and the one-tool-turn POST /v1/run, the
// syumai hello-world (hello) for GET /, the AI SDK Worker (aiSdk, a folder
// from buildAiSdkWorker) and each of others like ours. All run at once,
// each in its own workerd; rounds interleave the contenders and each cell
// is the median over rounds of (CPU over `requests` sequential requests) /
// requests.
//
// It measures twice: early (after 10 warm-up requests per scenario, as the
// isolate's first few hundred requests run: V8 has tiered little of a
// Worker's code up yet) and steady (after `steady` more requests of each
// scenario: V8 tiers a function up after a budget of work, and a Go
// function run once per request takes thousands of requests to reach it).
// out.cpuMsPerRequest and out.ranges are early's, out.steady the same for
// steady (null when steady is 0).
export async function measureWorkerCpu({ dir = workerDir, hello, peers = {}, others = [], rounds = 5, requests = 100, steady = 3000 } = {}) {
  const mock = await startWorkerMock();
  const started = [];
  const start = async (name, d, env) => {
    const before = new Set(workerdPids());
    const w = await startWorker(env, { dir: d });
    started.push(w);
    return { name, w, pids: workerdPids().filter((p) => !before.has(p)) };
  };
  try {
    const get = (w, path) => async () => {
      const res = await fetch(new URL(path, w.url));
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`GET ${path}: ${res.status}`);
    };
    const run = (w) => async () => {
      const res = await fetch(new URL("/v1/run", w.url), { method: "POST", headers: { "content-type": "application/json" }, body: RUN_BODY });
      const body = await res.json();
      if (res.status !== 200 || body.text !== "done: 5") throw new Error(`POST /v1/run: ${res.status} ${JSON.stringify(body)}`);
    };
    const contenders = [];
    const agent = async (name, d) => {
      const c = await start(name, d, WORKER_ENV(mock));
      contenders.push({ ...c, scenarios: { healthz: get(c.w, "/healthz"), run: run(c.w) } });
    };
    await agent("ours", dir);
    for (const [name, d] of Object.entries(peers)) await agent(name, d);
    for (const [i, d] of others.entries()) await agent(typeof d === "string" ? `other${i + 1}` : d.name, typeof d === "string" ? d : d.dir);
    if (hello) {
      const c = await start("syumai-hello", hello, {});
      contenders.push({ ...c, scenarios: { healthz: get(c.w, "/") } });
    }
    const measure = async () => {
      const samples = {};
      for (let r = 0; r < rounds; r++) {
        for (const c of contenders) {
          for (const [scenario, fn] of Object.entries(c.scenarios)) {
            const a = cpuNs(c.pids);
            for (let i = 0; i < requests; i++) await fn();
            const b = cpuNs(c.pids);
            ((samples[c.name] ??= {})[scenario] ??= []).push((b - a) / 1e6 / requests);
          }
        }
      }
      const m = { cpuMsPerRequest: {}, ranges: {}, samples };
      for (const [name, byScenario] of Object.entries(samples)) {
        m.cpuMsPerRequest[name] = Object.fromEntries(Object.entries(byScenario).map(([k, xs]) => [k, median(xs)]));
        m.ranges[name] = Object.fromEntries(Object.entries(byScenario).map(([k, xs]) => [k, [Math.min(...xs), Math.max(...xs)]]));
      }
      return m;
    };
    const warm = async (n) => {
      for (const c of contenders) for (const fn of Object.values(c.scenarios)) for (let i = 0; i < n; i++) await fn();
    };
    await warm(10);
    const out = { rounds, requests, steadyAfter: steady, ...(await measure()) };
    if (steady > 0) {
      await warm(steady);
      out.steady = await measure();
    }
    const h = out.cpuMsPerRequest["syumai-hello"]?.healthz;
    const o = out.cpuMsPerRequest.ours;
    if (h) out.ratioToHello = { healthz: o.healthz / h, run: o.run / h };
    const a = out.cpuMsPerRequest["ai-sdk"];
    if (a) out.ratioToAiSdk = { healthz: o.healthz / a.healthz, run: o.run / a.run };
    return out;
  } finally {
    for (const w of started) await w.dispose().catch(() => {});
    await mock.close();
  }
}

// cpuNs is the CPU time (ns) the threads of the given processes have run,
// from /proc/<pid>/task/*/schedstat (nanoseconds, where /proc/<pid>/stat
// counts 10 ms ticks: too coarse for one request).
export function cpuNs(pids) {
  let ns = 0;
  for (const p of pids) {
    let tasks = [];
    try { tasks = readdirSync(`/proc/${p}/task`); } catch { continue; }
    for (const t of tasks) {
      try { ns += Number(readFileSync(`/proc/${p}/task/${t}/schedstat`, "utf8").split(" ")[0]); } catch { /* ended */ }
    }
  }
  return ns;
}

// measureColdStart starts a fresh workerd for each start of each contender
// (ours: dir; peers: name → folder), in interleaved order, and measures its
// first POST /v1/run: wall time seen by the client and the CPU time of the
// workerd process (all threads: V8 compiles in the background) from the
// request to its answer. ready is the workerd's CPU from its start to
// ready (it loads and compiles the script then), for the note.
export async function measureColdStart({ dir = workerDir, peers = {}, starts = 10, log = () => {} } = {}) {
  const mock = await startWorkerMock();
  const names = ["ours", ...Object.keys(peers)];
  const dirs = { ours: dir, ...peers };
  const samples = Object.fromEntries(names.map((n) => [n, []]));
  try {
    for (let i = 0; i < starts; i++) {
      const order = names.map((_, k) => names[(k + i) % names.length]);
      for (const name of order) {
        const before = new Set(workerdPids());
        const w = await startWorker(WORKER_ENV(mock), { dir: dirs[name] });
        try {
          const pids = workerdPids().filter((p) => !before.has(p));
          const ready = cpuNs(pids);
          const t = performance.now();
          const res = await fetch(new URL("/v1/run", w.url), { method: "POST", headers: { "content-type": "application/json" }, body: RUN_BODY });
          const body = await res.json();
          const wall = performance.now() - t;
          const cpu = (cpuNs(pids) - ready) / 1e6;
          if (res.status !== 200 || body.text !== "done: 5") throw new Error(`${name}: first POST /v1/run: ${res.status} ${JSON.stringify(body)}`);
          samples[name].push({ wall, cpu, ready: ready / 1e6 });
          log(`   cold start ${i + 1}/${starts} ${name.padEnd(8)}: first POST /v1/run ${wall.toFixed(1)} ms wall, ${cpu.toFixed(1)} ms CPU (workerd start → ready ${(ready / 1e6).toFixed(1)} ms CPU)`);
        } finally {
          await w.dispose();
        }
      }
    }
  } finally {
    await mock.close();
  }
  const out = { starts, samples, byName: {} };
  for (const [name, xs] of Object.entries(samples)) {
    const stat = (k) => ({ median: median(xs.map((x) => x[k])), min: Math.min(...xs.map((x) => x[k])), max: Math.max(...xs.map((x) => x[k])) });
    out.byName[name] = { wall: stat("wall"), cpu: stat("cpu"), ready: stat("ready") };
  }
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv[2] === "cpu" || process.argv[2] === "cold") {
    const [hello, ...others] = process.argv.slice(3);
    const tmp = mkdtempSync(join(tmpdir(), "bench-peers-"));
    try {
      const peers = await peerWorkers(tmp);
      const out = process.argv[2] === "cold"
        ? await measureColdStart({ peers, starts: Number(process.argv[3] ?? 10), log: console.error })
        : await measureWorkerCpu({ hello: hello || undefined, peers, others });
      delete out.samples;
      console.log(JSON.stringify(out, null, 2));
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  } else {
    console.log(JSON.stringify(await measureWorker(Number(process.argv[2] ?? 50)), null, 2));
  }
}
