// worker.mjs — the Worker build on workerd (Miniflare, tests/worker-harness.mjs)
// against the local mock model (tests/worker-mock.mjs): per-request latency of
// GET /healthz and of a one-tool-turn POST /v1/run ("add 2 and 3": model → add
// → model), then requests per second under wrk (8 connections, 10 s each,
// 127.0.0.1 only) with the error count.
//
//   node bench/worker.mjs [runs=50]      (after ./build.sh worker; needs wrk)

import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { startWorker } from "../tests/worker-harness.mjs";
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
      for (let i = 0; i < 5; i++) await fn(); // warm workerd's module cache
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

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(JSON.stringify(await measureWorker(Number(process.argv[2] ?? 50)), null, 2));
}
