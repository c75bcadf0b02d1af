// load.mjs — the Worker under load on workerd (issue 8), bench-style: not a
// test of ./build.sh test. scripts/load.sh runs it (run_load).
//
//   ./build.sh worker && cd tests && timeout 300 node load.mjs [seconds=20] [connections=8,32]
//
// wrk drives POST /v1/run on a Worker started by Miniflare on 127.0.0.1; the
// model is a counting mock on 127.0.0.1 that answers every run with one tool
// turn: the prompt "add N" (N unique per request, from wrk's Lua script) makes
// the model call add {a: N, b: 0}; the tool result "N" comes back to the mock,
// which counts it as one execution of run N, and the run ends "done: N".
//
// Checks, per connection count: zero 5xx; every 200 "done: N" had exactly one
// execution of N (none lost); no N executed twice (none duplicated);
// workerd's RSS, sampled every second, does not keep growing. Prints the
// numbers and exits non-zero when a check fails.

import { spawn } from "node:child_process";
import { mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startMockLLM, toolResultsOf } from "./mock-llm.mjs";
import { startWorker, workerdPids, workerdUsage } from "./worker-harness.mjs";

const seconds = Number(process.argv[2] ?? 20);
const levels = (process.argv[3] ?? "8,32").split(",").map(Number);

// The counting model.
const issued = new Map(); // N → tool calls the model asked for
const executed = new Map(); // N → tool results the model was shown
function rule(request) {
  const msgs = request.body?.messages ?? [];
  const last = msgs.at(-1) ?? {};
  const results = toolResultsOf({ body: { messages: [last] } });
  if (results.length) {
    const n = results[0].content;
    executed.set(n, (executed.get(n) ?? 0) + 1);
    return { text: `done: ${n}` };
  }
  const m = String(last.content ?? "").match(/^add (\d+)$/);
  if (!m) return { text: "hello" };
  issued.set(m[1], (issued.get(m[1]) ?? 0) + 1);
  return { toolCalls: [{ name: "add", args: { a: Number(m[1]), b: 0 } }] };
}

// The wrk script: a unique N per request (run offset + thread id × 10^8 +
// counter; each wrk run gets its own offset, so a run cut off at the end of
// one level and finishing during the next cannot be mistaken for it); each
// 200 body's N is appended to a per-thread file; statuses are counted.
const LUA = `
local counter = 0
local threads = {}
local out
function setup(thread)
  thread:set("tid", #threads + 1)
  table.insert(threads, thread)
end
function init(args)
  out = io.open(args[1] .. "/done-" .. tid .. ".txt", "w")
  base = tonumber(args[2])
  s2, s4, s5, sx = 0, 0, 0, 0
end
function request()
  counter = counter + 1
  local n = string.format("%d", base + tid * 100000000 + counter)
  return wrk.format("POST", "/v1/run", {["Content-Type"] = "application/json"}, '{"prompt":"add ' .. n .. '"}')
end
function response(status, headers, body)
  if status >= 200 and status < 300 then
    s2 = s2 + 1
    local n = string.match(body, '"text":"done: (%d+)"')
    out:write((n or "?") .. "\\n")
    out:flush()
  elseif status >= 500 then s5 = s5 + 1
  elseif status >= 400 then s4 = s4 + 1
  else sx = sx + 1 end
end
function done(summary, latency, requests)
  local t = {s2 = 0, s4 = 0, s5 = 0, sx = 0}
  for _, th in ipairs(threads) do
    for k, _ in pairs(t) do t[k] = t[k] + (th:get(k) or 0) end
  end
  io.write(string.format('LOADJSON {"requests":%d,"seconds":%.3f,"rps":%.1f,"p50ms":%.1f,"p99ms":%.1f,"maxms":%.1f,' ..
    '"s2xx":%d,"s4xx":%d,"s5xx":%d,"sOther":%d,"connectErrors":%d,"readErrors":%d,"writeErrors":%d,"timeouts":%d}\\n',
    summary.requests, summary.duration / 1e6, summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.max / 1000,
    t.s2, t.s4, t.s5, t.sx, summary.errors.connect, summary.errors.read, summary.errors.write, summary.errors.timeout))
end
`;

// rssMB is the resident set of the workerd processes, rounded to MB.
const rssMB = (pids) => Math.round(workerdUsage(pids).rssMB);

let wrkRuns = 0;
function wrk(url, conns, secs, dir, script) {
  const base = ++wrkRuns * 1e10;
  return new Promise((resolve, reject) => {
    const args = ["-t", String(Math.min(conns, 4)), "-c", String(conns), "-d", `${secs}s`, "--timeout", "10s", "--latency", "-s", script, url, "--", dir, String(base)];
    const p = spawn("wrk", args, { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    p.stdout.on("data", (c) => { out += c; });
    p.stderr.on("data", (c) => { out += c; });
    const kill = setTimeout(() => p.kill("SIGKILL"), (secs + 60) * 1000);
    p.on("error", reject);
    p.on("close", (code) => {
      clearTimeout(kill);
      const m = out.match(/LOADJSON (\{.*\})/);
      if (code !== 0 || !m) return reject(new Error(`wrk exited ${code}: ${out}`));
      resolve(JSON.parse(m[1]));
    });
  });
}

const mock = await startMockLLM({ script: new Proxy([], { get: (t, k) => (typeof k === "string" && /^\d+$/.test(k) ? rule : t[k]) }) });
const worker = await startWorker({
  LLM_BASE_URL: `${mock.url}/v1`, LLM_MODEL: "mock-model", LLM_API_KEY: "load-key",
  STATE_SECRET: "load-state-secret-0123456789abcdef0123", LLM_RETRIES: "0",
});
const tmp = await mkdtemp(join(tmpdir(), "toolnexus-load-"));
// Other work on the machine changes the figures: print the load average.
const loadavg = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
const loadBefore = loadavg();
const failures = [];
const rows = [];
try {
  const script = join(tmp, "run.lua");
  await writeFile(script, LUA);
  const pids = workerdPids();
  if (pids.length === 0) throw new Error("no workerd process found under this Node process");
  const url = new URL("/v1/run", worker.url).href;
  // Warm-up: JIT, wasm compile, connection pools.
  await wrk(url, 4, 3, tmp, script);
  await new Promise((ok) => setTimeout(ok, 1500));
  const rssStart = rssMB(pids);
  for (const conns of levels) {
    for (const f of await readdir(tmp)) if (f.startsWith("done-")) await rm(join(tmp, f));
    issued.clear();
    executed.clear();
    const samples = [];
    const sampler = setInterval(() => samples.push(rssMB(pids)), 1000);
    const r = await wrk(url, conns, seconds, tmp, script);
    clearInterval(sampler);
    await new Promise((ok) => setTimeout(ok, 1500)); // runs cut off by wrk's end may still finish
    const done = [];
    for (const f of await readdir(tmp)) {
      if (f.startsWith("done-")) done.push(...(await readFile(join(tmp, f), "utf8")).split("\n").filter(Boolean));
    }
    const lost = done.filter((n) => executed.get(n) !== 1);
    const duplicated = [...executed].filter(([, c]) => c > 1).map(([n]) => n);
    const unparsed = done.filter((n) => n === "?").length;
    const abandoned = [...issued.keys()].filter((n) => !executed.has(n)).length; // cut off when wrk stopped
    const third = Math.max(1, Math.floor(samples.length / 3));
    const early = Math.max(...samples.slice(0, third));
    const late = Math.max(...samples.slice(-third));
    const row = { connections: conns, ...r, completedRuns: done.length, toolExecutions: [...executed.values()].reduce((a, b) => a + b, 0),
      lost: lost.length, duplicated: duplicated.length, unparsed, abandonedAtCutoff: abandoned,
      rssMB: { min: Math.min(...samples), max: Math.max(...samples), firstThirdMax: early, lastThirdMax: late } };
    rows.push(row);
    if (r.s5xx > 0) failures.push(`${conns} connections: ${r.s5xx} responses were 5xx`);
    if (r.s4xx + r.sOther > 0) failures.push(`${conns} connections: ${r.s4xx + r.sOther} non-2xx, non-5xx responses`);
    if (lost.length) failures.push(`${conns} connections: ${lost.length} completed runs without exactly one tool execution (e.g. ${lost.slice(0, 3)})`);
    if (duplicated.length) failures.push(`${conns} connections: ${duplicated.length} tool calls executed more than once`);
    if (r.s2xx !== done.length) failures.push(`${conns} connections: ${r.s2xx} 2xx responses but ${done.length} recorded`);
    if (done.length === 0) failures.push(`${conns} connections: no run completed`);
    // Stable memory: the last third of the run holds no more than the first third plus 25% (and 64 MB of slack).
    if (late > early * 1.25 + 64) failures.push(`${conns} connections: workerd RSS grew from ${early} MB to ${late} MB`);
  }
  const rssEnd = rssMB(pids);
  console.log(`== Worker load on workerd: POST /v1/run, one tool turn per run, ${seconds} s per level, ${new Date().toISOString()}, load average ${loadBefore} before, ${loadavg()} after`);
  console.log("connections  requests   req/s   p50 ms   p99 ms   max ms   2xx    5xx  lost  dup  abandoned  workerd RSS MB (min–max)");
  for (const r of rows) {
    console.log(`${String(r.connections).padStart(11)}  ${String(r.requests).padStart(8)}  ${r.rps.toFixed(1).padStart(6)}  ${r.p50ms.toFixed(1).padStart(7)}  ${r.p99ms.toFixed(1).padStart(7)}  ${r.maxms.toFixed(1).padStart(7)}  ${String(r.s2xx).padStart(5)}  ${String(r.s5xx).padStart(5)}  ${String(r.lost).padStart(4)}  ${String(r.duplicated).padStart(3)}  ${String(r.abandonedAtCutoff).padStart(9)}  ${r.rssMB.min}–${r.rssMB.max}`);
  }
  console.log(`workerd RSS: ${rssStart} MB after warm-up, ${rssEnd} MB at the end; socket errors: ${rows.map((r) => `${r.connections}c connect ${r.connectErrors} read ${r.readErrors} write ${r.writeErrors} timeout ${r.timeouts}`).join("; ")}`);
  console.log("LOADRESULT " + JSON.stringify({ seconds, loadBefore, loadAfter: loadavg(), rssStart, rssEnd, rows }));
} catch (err) {
  failures.push(String(err?.stack ?? err));
} finally {
  await worker.dispose().catch(() => {});
  await mock.close();
  await rm(tmp, { recursive: true, force: true });
}
if (failures.length) {
  console.error("LOAD FAILED:\n  " + failures.join("\n  "));
  process.exit(1);
}
console.log("== load: zero 5xx, no lost or duplicated tool executions, memory stable");
