// runs-cpu.mjs — what a durable run costs the Worker: workerd's CPU (user +
// system, all threads, from /proc) per one-tool durable run, POST /v1/runs
// "add 2 and 3" (model → add → model) read to its done event through GET
// /v1/runs/{id}/events, for each built Worker folder given, in interleaved
// rounds; each cell is the median over rounds of (CPU over `runs` sequential
// runs) / runs. Issue 31 measured the journal with it: a folder built before
// the runs were journaled beside one built after.
//
//   node bench/runs-cpu.mjs [worker dir …]     (default: dist/worker; ./build.sh worker first)
//   ROUNDS=5 RUNS=40 node bench/runs-cpu.mjs /tmp/old-dist/worker dist/worker

import { startWorker, workerDir, workerdPids, workerdUsage } from "../tests/worker-harness.mjs";
import { startWorkerMock } from "../tests/worker-mock.mjs";
import { median } from "./loop.mjs";

const rounds = Number(process.env.ROUNDS ?? 5);
const runs = Number(process.env.RUNS ?? 40);
const dirs = process.argv.slice(2).length ? process.argv.slice(2) : [workerDir];

// durableRun starts one run and reads its events until done.
async function durableRun(url) {
  const res = await fetch(new URL("/v1/runs", url), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ prompt: "add 2 and 3" }) });
  const { id } = await res.json();
  if (res.status !== 202) throw new Error(`POST /v1/runs: ${res.status}`);
  const events = await (await fetch(new URL(`/v1/runs/${id}/events`, url))).text();
  if (!/event: done\ndata: .*"text":"done: 5"/.test(events)) throw new Error(`run ${id} did not end done: ${events.slice(-300)}`);
}

const mock = await startWorkerMock();
const workers = [];
try {
  for (const dir of dirs) {
    const before = new Set(workerdPids());
    const w = await startWorker({ LLM_BASE_URL: `${mock.url}/v1`, LLM_MODEL: "mock-model", LLM_API_KEY: "bench-key", STATE_SECRET: "bench-state-secret-0123456789abcdef" }, { dir });
    workers.push({ dir, w, pids: workerdPids().filter((p) => !before.has(p)), cells: [] });
  }
  for (const c of workers) for (let i = 0; i < 5; i++) await durableRun(c.w.url); // warm
  for (let r = 0; r < rounds; r++) {
    for (const c of workers) {
      const before = workerdUsage(c.pids).cpuMs;
      for (let i = 0; i < runs; i++) await durableRun(c.w.url);
      c.cells.push((workerdUsage(c.pids).cpuMs - before) / runs);
    }
  }
  const base = median(workers[0].cells);
  for (const c of workers) {
    const m = median(c.cells);
    console.log(`${c.dir}: ${m.toFixed(2)} ms CPU per durable run (median of ${rounds} rounds of ${runs}; range ${Math.min(...c.cells).toFixed(2)}–${Math.max(...c.cells).toFixed(2)}), ${(m / base).toFixed(2)}× the first`);
  }
} finally {
  for (const c of workers) await c.w.dispose().catch(() => {});
  await mock.close();
}
