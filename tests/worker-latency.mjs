// worker-latency.mjs — measure the built Worker on workerd (Miniflare) against the
// local mock model: the wasm size and the latency of a one-tool-turn /v1/run
// ("add 2 and 3": model → add → model, two model calls, on the isolate's one
// long-lived Go instance).
//
//   ./build.sh worker && node tests/worker-latency.mjs [runs=50]
//
// A measurement, not a test: it prints numbers and asserts only that runs succeed.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { startWorkerMock } from "./worker-mock.mjs";
import { buildDir, startWorker } from "./worker-harness.mjs";

const runs = Number(process.argv[2] ?? 50);
const wasm = readFileSync(join(buildDir, "app.wasm"));
console.log(`app.wasm: ${wasm.length} bytes raw, ${gzipSync(wasm, { level: 9 }).length} bytes gzip (node zlib level 9)`);

const mock = await startWorkerMock();
let worker;
try {
  worker = await startWorker({
    LLM_BASE_URL: `${mock.url}/v1`, LLM_MODEL: "mock-model", LLM_API_KEY: "bench-key",
    STATE_SECRET: "bench-state-secret-0123456789abcdef",
  });
  const time = async (fn) => {
    const t = performance.now();
    await fn();
    return performance.now() - t;
  };
  const oneToolTurn = async () => {
    const res = await worker.call("POST", "/v1/run", { body: { prompt: "add 2 and 3" } });
    if (res.status !== 200 || res.json.text !== "done: 5") throw new Error(`bad run: ${res.status} ${res.text}`);
  };
  const health = async () => {
    const res = await worker.call("GET", "/healthz");
    if (res.status !== 200) throw new Error(`bad healthz: ${res.status}`);
  };
  for (let i = 0; i < 5; i++) await oneToolTurn(); // warm up workerd's module cache
  const report = async (name, fn) => {
    const ms = [];
    for (let i = 0; i < runs; i++) ms.push(await time(fn));
    ms.sort((a, b) => a - b);
    const at = (q) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))].toFixed(1);
    console.log(`${name}: median ${at(0.5)} ms, p90 ${at(0.9)} ms, min ${ms[0].toFixed(1)} ms (${runs} runs)`);
  };
  await report("GET /healthz (no model)", health);
  await report("POST /v1/run, one tool turn (2 model calls)", oneToolTurn);
} finally {
  await worker?.dispose();
  await mock.close();
}
