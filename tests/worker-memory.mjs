// worker-memory.mjs — memory of the Worker's one long-lived Go instance over many
// requests on workerd (Miniflare), against the local mock model: a measurement,
// not a test (it asserts only that every request succeeds and that one
// instance served them all).
//
//   ./build.sh worker && node tests/worker-memory.mjs [requests=10000] [concurrency=8]
//   WORKER_DIR=<a built Worker folder> node tests/worker-memory.mjs   (another build:
//                                          an older one shows workerd's numbers only)
//
// The requests cycle through a one-tool-turn POST /v1/run, a streamed run, GET
// /v1/tools and GET /healthz. Every 1000 requests it prints workerd's resident
// set, the Worker isolate's JS heap (V8's inspector: used of total), the Go
// instance's wasm memory (it grows and never shrinks: Go's heap lives in it)
// and the JS values Go holds references to, from GET /__test/instance
// (TOOLNEXUS_TEST_HOOKS=1).

import { createServer } from "node:net";
import { startWorkerMock } from "./worker-mock.mjs";
import { startWorker, workerdPids, workerdUsage } from "./worker-harness.mjs";

const total = Number(process.argv[2] ?? 10_000);
const concurrency = Number(process.argv[3] ?? 8);
const mb = (n) => (n / 2 ** 20).toFixed(1);

const freePort = () => new Promise((ok) => { const s = createServer().listen(0, "127.0.0.1", () => { const { port } = s.address(); s.close(() => ok(port)); }); });
const mock = await startWorkerMock();
const worker = await startWorker({
  LLM_BASE_URL: `${mock.url}/v1`, LLM_MODEL: "mock-model", LLM_API_KEY: "mem-key",
  STATE_SECRET: "mem-state-secret-0123456789abcdef", TOOLNEXUS_TEST_HOOKS: "1",
}, { dir: process.env.WORKER_DIR, inspectorPort: await freePort() });
try {
  const pids = workerdPids();
  const kinds = [
    async (i) => {
      const r = await worker.call("POST", "/v1/run", { body: { prompt: `add ${i} and 1` } });
      if (r.json?.text !== `done: ${i + 1}`) throw new Error(`run ${i}: ${r.status} ${r.text.slice(0, 200)}`);
    },
    async (i) => {
      const r = await worker.call("POST", "/v1/run", { body: { prompt: `add ${i} and 2`, stream: true } });
      if (!r.text.includes(`"text":"done: ${i + 2}"`)) throw new Error(`stream ${i}: ${r.status} ${r.text.slice(0, 200)}`);
    },
    async () => {
      const r = await worker.call("GET", "/v1/tools");
      if (r.status !== 200) throw new Error(`tools: ${r.status}`);
    },
    async () => {
      const r = await worker.call("GET", "/healthz");
      if (r.status !== 200) throw new Error(`healthz: ${r.status}`);
    },
  ];
  // A build without the test routes (an older one) shows workerd's RSS only.
  const sample = async (done) => {
    const res = await worker.call("GET", "/__test/instance");
    const s = res.status === 200 ? res.json : { js: {} };
    const u = workerdUsage(pids);
    const heap = await worker.heapUsage();
    const n = (x, f = String) => (x === undefined ? "–" : f(x));
    console.log([String(done).padStart(8), u.rssMB.toFixed(1).padStart(9), `${mb(heap.usedSize)} of ${mb(heap.totalSize)}`.padStart(13), n(s.js.memory, mb).padStart(9),
      n(s.js.refs).padStart(7), n(s.js.timers).padStart(6), n(s.served).padStart(8), n(s.goInstance)].join("  "));
    return s;
  };
  console.log(`== ${total} requests, ${concurrency} at a time, ${new Date().toISOString()}, load average ${(await import("node:os")).loadavg().map((x) => x.toFixed(2)).join(" ")}`);
  console.log("requests  RSS (MB)  JS heap (MB)   wasm MB  JS refs  timers   served  Go instance");
  const first = await sample(0);
  let next = 0;
  for (let block = 1000; next < total; block += 1000) {
    const end = Math.min(block, total);
    await Promise.all(Array.from({ length: concurrency }, async () => {
      while (next < end) {
        const i = next++;
        await kinds[i % kinds.length](i);
      }
    }));
    const s = await sample(end);
    if (s.goInstance !== first.goInstance) throw new Error("the Go instance was replaced");
  }
} finally {
  await worker.dispose();
  await mock.close();
}
