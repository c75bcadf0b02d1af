// worker.test.mjs — the Cloudflare Worker end to end on workerd (Miniflare), against
// the scripted mock model on 127.0.0.1. Run after ./build.sh worker:
//
//   cd tests && timeout 600 node --test --test-force-exit worker.test.mjs
//
// Five Workers share one mock model; each has the APPROVALS ledger bound, as
// the generated wrangler.jsonc does:
//   main      OpenAI style, API_TOKEN and ALLOWED_ORIGINS set, a number var
//   other     another STATE_SECRET, tokens live 1 s, no API_TOKEN
//   anthropic Anthropic style
//   broken    LLM_API_KEY missing and MAX_TURNS invalid
//   offline   LLM_BASE_URL points at a closed port
// and one has a mock of its own that answers after 0–80 ms, the test routes on
// (TOOLNEXUS_TEST_HOOKS=1: GET /__test/instance, /__test/panic, /__test/exit,
// /__test/sleep; worker/cfworker/serve_js.go) and an MCP server over HTTP+SSE:
//   hooks     one Go instance per isolate: many requests, interleaved ones, a
//             panic, a dead instance; streaming; MCP over HTTP+SSE
// Every response body and header, and everything the Workers log, is checked for
// the keys and secrets.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { toolResultsOf } from "./mock-llm.mjs";
import { startWorkerMock } from "./worker-mock.mjs";
import { startWorker, workerDir } from "./worker-harness.mjs";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startMcpServer } from "./mcp-server.mjs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const KEY = "sk-e2e-provider-key-7f3a9c";
const SECRET = "e2e-state-secret-0123456789abcdef-main";
const OTHER_SECRET = "e2e-state-secret-0123456789abcdef-other";
const TOKEN = "e2e-api-token-5b8d21";
const SECRETS = [KEY, SECRET, OTHER_SECRET, TOKEN];
const ORIGIN = "https://app.example";
const AUTH = { authorization: `Bearer ${TOKEN}` };

let mock, slowMock, mcp;
const workers = {};

before(async () => {
  mock = await startWorkerMock();
  slowMock = await startWorkerMock({ delay: () => Math.floor(Math.random() * 80) });
  mcp = await startMcpServer();
  const base = { LLM_BASE_URL: `${mock.url}/v1`, LLM_MODEL: "mock-model", LLM_API_KEY: KEY };
  workers.main = await startWorker({ ...base, STATE_SECRET: SECRET, API_TOKEN: TOKEN, ALLOWED_ORIGINS: ORIGIN, MAX_BODY_BYTES: "65536", MAX_TURNS: 5 });
  workers.other = await startWorker({ ...base, STATE_SECRET: OTHER_SECRET, STATE_TTL_SECONDS: "1" });
  workers.anthropic = await startWorker({ ...base, LLM_BASE_URL: mock.url, LLM_STYLE: "anthropic", STATE_SECRET: SECRET });
  workers.broken = await startWorker({ LLM_BASE_URL: base.LLM_BASE_URL, LLM_MODEL: "mock-model", STATE_SECRET: SECRET, MAX_TURNS: "many" });
  workers.offline = await startWorker({ ...base, LLM_BASE_URL: "http://127.0.0.1:9/v1", STATE_SECRET: SECRET });
  workers.hooks = await startWorker({
    ...base, LLM_BASE_URL: `${slowMock.url}/v1`, STATE_SECRET: SECRET, TOOLNEXUS_TEST_HOOKS: "1",
    MCP_CONFIG: JSON.stringify({ mcpServers: { old: { type: "sse", url: mcp.sseUrl, timeout: 10_000 } } }),
  });
});

after(async () => {
  for (const w of Object.values(workers)) await w.dispose().catch(() => {});
  await mock?.close();
  await slowMock?.close();
  await mcp?.close();
});

// call sends one request to a Worker and checks that no secret comes back.
async function call(worker, method, path, opts) {
  const res = await workers[worker].call(method, path, opts);
  const seen = res.text + JSON.stringify([...res.headers]);
  for (const s of SECRETS) assert.ok(!seen.includes(s), `${method} ${path} on ${worker} returned a secret: ${seen}`);
  return res;
}

const run = (worker, prompt, headers = AUTH) => call(worker, "POST", "/v1/run", { body: { prompt }, headers });
const resume = (worker, state, answer, headers = AUTH) => call(worker, "POST", "/v1/resume", { body: { state, answer }, headers });

// halt runs the refund prompt and checks that it halted for approval.
async function halt(worker, headers = AUTH) {
  const res = await run(worker, "please refund order 42", headers);
  assert.equal(res.status, 200, res.text);
  assert.equal(res.json.status, "pending", res.text);
  assert.match(res.json.state, /^tn1\./);
  assert.equal(res.json.pending.kind, "approval");
  assert.equal(res.json.pending.data.tool, "refund");
  assert.deepEqual(res.json.pending.data.args, { order: 42 });
  return res.json;
}

// refundResults counts the refund outputs the model was shown in requests[from:].
function refundResults(from) {
  return mock.requests.slice(from).map((r) => toolResultsOf(r).filter((t) => t.content === "refunded order 42").length);
}

test("health, tools and metrics answer", async () => {
  assert.equal((await call("main", "GET", "/healthz")).status, 200);
  const tools = await call("main", "GET", "/v1/tools", { headers: AUTH });
  assert.equal(tools.status, 200, tools.text);
  assert.deepEqual(tools.json.tools.map((t) => [t.name, t.needsApproval]), [["add", false], ["refund", true]]);
  assert.equal(tools.json.tools[1].inputSchema.type, "object");
  const metrics = await call("main", "GET", "/metrics");
  assert.equal(metrics.status, 200);
  assert.match(metrics.headers.get("content-type"), /^text\/plain/);
  assert.match(metrics.text, /# TYPE toolnexus_worker_requests_total counter/);
});

test("a harmless tool runs inside one request", async () => {
  const res = await run("main", "add 2 and 3");
  assert.equal(res.status, 200, res.text);
  assert.equal(res.json.status, "done");
  assert.equal(res.json.text, "done: 5");
  assert.equal(res.json.state, undefined);
});

test("run ⇒ pending ⇒ resume with a decline ⇒ done, and the model saw the reason", async () => {
  const halted = await halt("main");
  const from = mock.requests.length;
  const reason = "order 42 is past the refund window";
  const res = await resume("main", halted.state, { id: halted.pending.id, ok: false, reason });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.json.status, "done");
  assert.equal(mock.requests.length, from + 1);
  const shown = toolResultsOf(mock.requests[from]);
  assert.equal(shown.length, 1);
  assert.match(shown[0].content, new RegExp(reason));
  assert.deepEqual(refundResults(from), [0], "a declined refund must not run");
});

test("run ⇒ resume with approval ⇒ the tool ran exactly once; the token cannot be reused", async () => {
  const halted = await halt("main");
  const from = mock.requests.length;
  const answer = { id: halted.pending.id, ok: true };
  const res = await resume("main", halted.state, answer);
  assert.equal(res.status, 200, res.text);
  assert.equal(res.json.status, "done");
  assert.equal(res.json.text, "done: refunded order 42");
  assert.equal(res.json.toolCalls.filter((c) => c.name === "refund").length, 1);
  assert.deepEqual(refundResults(from), [1], "the model must see exactly one refund output");
  // The ledger (APPROVALS) refuses a second resume, and it runs nothing.
  const again = await resume("main", halted.state, answer);
  assert.equal(again.status, 409, again.text);
  assert.equal(again.json.error.code, "state_spent");
  assert.equal(mock.requests.length, from + 1, "a reused token reached the model");
});

test("tampered, foreign-secret, cross-style and expired tokens are refused and nothing runs", async () => {
  const halted = await halt("main");
  const foreign = await halt("other", {});
  const from = mock.requests.length;
  const [v, payload, sig] = halted.state.split(".");
  const i = Math.floor(payload.length / 2);
  const tampered = [v, payload.slice(0, i) + (payload[i] === "A" ? "B" : "A") + payload.slice(i + 1), sig].join(".");
  const cases = [
    ["tampered", "main", tampered, halted.pending.id, "state_invalid"],
    ["foreign secret", "main", foreign.state, foreign.pending.id, "state_invalid"],
    ["not a token", "main", "hello", halted.pending.id, "state_malformed"],
    ["transcript in another wire style", "anthropic", halted.state, halted.pending.id, "state_mismatch"],
  ];
  for (const [name, worker, state, id, code] of cases) {
    const res = await resume(worker, state, { id, ok: true });
    assert.equal(res.status, 400, `${name}: ${res.text}`);
    assert.equal(res.json.error.code, code, name);
    assert.ok(res.json.error.message.length > 10, name);
  }
  await sleep(2100); // the other Worker's tokens live 1 s
  const expired = await resume("other", foreign.state, { id: foreign.pending.id, ok: true }, {});
  assert.equal(expired.status, 400, expired.text);
  assert.equal(expired.json.error.code, "state_expired");
  assert.equal(mock.requests.length, from, "a refused token reached the model");
});

test("API_TOKEN is required on /v1/* when set", async () => {
  for (const headers of [{}, { authorization: "Bearer wrong" }, { authorization: TOKEN }]) {
    const res = await run("main", "hi", headers);
    assert.equal(res.status, 401, res.text);
    assert.equal(res.json.error.code, "unauthorized");
    assert.match(res.headers.get("www-authenticate"), /^Bearer/);
  }
  assert.equal((await call("main", "GET", "/v1/tools")).status, 401);
  assert.equal((await run("main", "hi")).status, 200);
  for (const scheme of ["bearer", "BEARER", "bEaReR"]) {
    const res = await run("main", "hi", { authorization: `${scheme} ${TOKEN}` });
    assert.equal(res.status, 200, `the scheme is case-insensitive: ${scheme}: ${res.text}`);
  }
  assert.equal((await run("other", "hi", {})).status, 200, "no API_TOKEN: no bearer needed");
});

test("CORS: preflight answered for an allowed origin, refused for another", async () => {
  const preflight = (origin) => call("main", "OPTIONS", "/v1/run", {
    headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "authorization, content-type" },
  });
  const ok = await preflight(ORIGIN);
  assert.equal(ok.status, 204);
  assert.equal(ok.headers.get("access-control-allow-origin"), ORIGIN);
  assert.match(ok.headers.get("access-control-allow-methods"), /POST/);
  assert.match(ok.headers.get("access-control-allow-headers").toLowerCase(), /authorization/);
  const refused = await preflight("https://evil.example");
  assert.equal(refused.status, 403);
  assert.equal(refused.headers.get("access-control-allow-origin"), null);
  const from = mock.requests.length;
  const simple = await call("main", "POST", "/v1/run", {
    body: JSON.stringify({ prompt: "refund" }),
    headers: { ...AUTH, origin: "https://evil.example", "content-type": "text/plain" },
  });
  assert.equal(simple.status, 403, "a cross-site simple POST must not run");
  assert.equal(mock.requests.length, from);
  const allowed = await call("main", "POST", "/v1/run", { body: { prompt: "hi" }, headers: { ...AUTH, origin: ORIGIN } });
  assert.equal(allowed.status, 200);
  assert.equal(allowed.headers.get("access-control-allow-origin"), ORIGIN);
});

test("Anthropic style: run ⇒ approve ⇒ done", async () => {
  const halted = await halt("anthropic", {});
  assert.equal(mock.requests.at(-1).style, "anthropic");
  assert.equal(mock.requests.at(-1).headers["x-api-key"], KEY, "the key reaches the provider");
  const from = mock.requests.length;
  const res = await resume("anthropic", halted.state, { id: halted.pending.id, ok: true }, {});
  assert.equal(res.status, 200, res.text);
  assert.equal(res.json.text, "done: refunded order 42");
  assert.deepEqual(refundResults(from), [1]);
});

test("an LLM failure is a 502 naming the upstream status", async () => {
  const res = await run("main", "please fail");
  assert.equal(res.status, 502, res.text);
  assert.equal(res.json.error.code, "upstream_error");
  assert.equal(res.json.error.upstreamStatus, 503);
  assert.match(res.json.error.message, /503/);
});

test("an unreachable LLM is a 502 and the Worker stays up", async () => {
  const res = await run("offline", "hi", {});
  assert.equal(res.status, 502, res.text);
  assert.equal(res.json.error.code, "upstream_error");
  assert.equal(res.json.error.upstreamStatus, undefined);
  assert.match(res.json.error.message, /127\.0\.0\.1:9\/v1\/chat\/completions.*fetch failed/);
  assert.equal((await call("offline", "GET", "/healthz")).status, 200);
});

test("every missing or invalid setting is named in one 500, and in /readyz", async () => {
  const from = mock.requests.length;
  const res = await run("broken", "hi", {});
  assert.equal(res.status, 500, res.text);
  assert.equal(res.json.error.code, "config");
  assert.match(res.json.error.message, /LLM_API_KEY.*MAX_TURNS/);
  assert.deepEqual(res.json.error.problems.map((p) => p.setting), ["LLM_API_KEY", "MAX_TURNS"]);
  const health = await call("broken", "GET", "/healthz");
  assert.equal(health.status, 200);
  assert.deepEqual(health.json, { status: "ok", ready: false });
  const ready = await call("broken", "GET", "/readyz");
  assert.equal(ready.status, 503, ready.text);
  assert.deepEqual({ status: ready.json.status, run: ready.json.run, resume: ready.json.resume }, { status: "not_ready", run: false, resume: false });
  assert.deepEqual(ready.json.problems.map((p) => p.setting), ["LLM_API_KEY", "MAX_TURNS"]);
  const ok = await call("main", "GET", "/readyz");
  assert.equal(ok.status, 200, ok.text);
  assert.deepEqual(ok.json, { status: "ready", run: true, resume: true, problems: [] });
  assert.equal(mock.requests.length, from, "a misconfigured Worker called the model");
});

test("a JSON route refuses another Content-Type, or none, with 415 and runs nothing", async () => {
  const from = mock.requests.length;
  const body = JSON.stringify({ prompt: "please refund order 42" });
  for (const type of ["text/plain", "application/x-www-form-urlencoded", "application/json; charset=iso-8859-1"]) {
    const res = await call("main", "POST", "/v1/run", { body, headers: { ...AUTH, "content-type": type } });
    assert.equal(res.status, 415, `${type}: ${res.text}`);
    assert.equal(res.json.error.code, "unsupported_media_type");
  }
  // No Content-Type at all (a byte body): fetch sends none.
  const bare = await fetch(new URL("/v1/run", workers.main.url), { method: "POST", headers: AUTH, body: new TextEncoder().encode(body) });
  assert.equal(bare.status, 415, await bare.text());
  assert.equal(mock.requests.length, from, "a refused body reached the model");
  const charset = await call("main", "POST", "/v1/run", { body: JSON.stringify({ prompt: "hi" }), headers: { ...AUTH, "content-type": "application/json; charset=UTF-8" } });
  assert.equal(charset.status, 200, charset.text);
});

test("bad requests get 4xx JSON errors", async () => {
  const cases = [
    ["POST", "/v1/run", '{"prompt":', 400, "bad_json"],
    ["POST", "/v1/run", "{}", 400, "missing_field"],
    ["POST", "/v1/run", JSON.stringify({ prompt: "x".repeat(70000) }), 413, "body_too_large"],
    ["POST", "/v1/resume", '{"state":"tn1.a.b"}', 400, "missing_field"],
    ["GET", "/v1/run", undefined, 405, "method_not_allowed"],
    ["GET", "/nope", undefined, 404, "not_found"],
  ];
  for (const [method, path, body, status, code] of cases) {
    const res = await call("main", method, path, { body, headers: AUTH });
    assert.equal(res.status, status, `${method} ${path}: ${res.text}`);
    assert.equal(res.json?.error?.code, code, `${method} ${path}: ${res.text}`);
    assert.match(res.headers.get("content-type"), /^application\/json/);
  }
});

// instance reads the hooks Worker's GET /__test/instance.
async function instance() {
  const res = await call("hooks", "GET", "/__test/instance");
  assert.equal(res.status, 200, res.text);
  return res.json;
}

test("Go starts while the module loads, before the first request", async () => {
  const first = await instance();
  assert.equal(first.instance, 1, "an instance started before this one");
  assert.equal(first.js.startedAtLoad, true, `Go did not start in global scope: ${workers.hooks.output.join("").slice(-500)}`);
  assert.doesNotMatch(workers.hooks.output.join(""), /did not start while the module loaded/);
});

test("a Worker whose Go cannot start while loading starts it in the first request", async () => {
  // A copy of the build whose main module makes Math.random throw while the
  // modules load (as a platform refusing all randomness in global scope
  // would), then puts it back: Go's start at load fails, and the first
  // request starts it.
  const dir = mkdtempSync(join(tmpdir(), "tn-worker-noload-"));
  try {
    cpSync(workerDir, dir, { recursive: true, filter: (src) => !src.endsWith("node_modules") });
    writeFileSync(join(dir, "build", "no-random-at-load.mjs"),
      'globalThis.__testRandom = Math.random;\nMath.random = () => { throw new Error("test: no random values while the module loads"); };\n');
    writeFileSync(join(dir, "build", "main-no-random.mjs"), [
      'import "./no-random-at-load.mjs";',
      'import worker from "./worker.mjs";',
      'export { ApprovalLedger, RunLog } from "./worker.mjs";',
      "Math.random = globalThis.__testRandom;",
      "export default worker;", "",
    ].join("\n"));
    const config = join(dir, "wrangler.jsonc");
    writeFileSync(config, readFileSync(config, "utf8").replace('"main": "./build/worker.mjs"', '"main": "./build/main-no-random.mjs"'));
    const w = await startWorker({ LLM_BASE_URL: `${mock.url}/v1`, LLM_MODEL: "mock-model", LLM_API_KEY: KEY, STATE_SECRET: SECRET, TOOLNEXUS_TEST_HOOKS: "1" }, { dir });
    try {
      const inst = (await w.call("GET", "/__test/instance")).json;
      assert.equal(inst.js.startedAtLoad, false, JSON.stringify(inst));
      assert.equal(inst.instance, 2, "the start at load counted as instance 1");
      assert.match(w.output.join(""), /Go did not start while the module loaded; the first request starts it: .*test: no random values/);
      const res = await w.call("POST", "/v1/run", { body: { prompt: "add 2 and 3" } });
      assert.equal(res.json?.text, "done: 5", res.text);
    } finally {
      await w.dispose();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("one Go instance serves many requests in turn", async () => {
  const first = await instance();
  for (let i = 0; i < 40; i++) {
    const res = i % 4 === 0
      ? await call("hooks", "GET", "/healthz")
      : await call("hooks", "POST", "/v1/run", { body: { prompt: `add ${i} and 1` } });
    assert.equal(res.status, 200, res.text);
    if (i % 4) assert.equal(res.json.text, `done: ${i + 1}`);
  }
  const last = await instance();
  assert.equal(last.goInstance, first.goInstance, "a request started a new Go instance");
  assert.equal(last.instance, first.instance);
  assert.equal(last.served, first.served + 41);
});

test("interleaved requests on one instance each get their own answer", async () => {
  const first = await instance();
  // Runs whose model answers after 0–80 ms, and requests that wake from a
  // Go timer (which may fire in another request's turn): each must answer
  // from its own request's context.
  const jobs = [];
  for (let i = 0; i < 12; i++) {
    jobs.push(call("hooks", "POST", "/v1/run", { body: { prompt: `add ${i} and ${i * 7}` } })
      .then((res) => assert.equal(res.json?.text, `done: ${i * 8}`, res.text)));
  }
  for (let i = 0; i < 6; i++) {
    jobs.push(call("hooks", "GET", `/__test/sleep?ms=${30 + 25 * i}&id=s${i}`)
      .then((res) => assert.deepEqual(res.json, { slept: 30 + 25 * i, id: `s${i}` }, res.text)));
  }
  await Promise.all(jobs);
  const last = await instance();
  assert.equal(last.goInstance, first.goInstance);
  assert.equal(last.served, first.served + 19);
  assert.ok(last.hops > first.hops, "no goroutine had to move to its request's context: the test did not interleave");
});

test("a panicking request gets a 500 and the instance goes on", async () => {
  const first = await instance();
  const res = await call("hooks", "GET", "/__test/panic");
  assert.equal(res.status, 500, res.text);
  assert.equal(res.json.error.code, "internal");
  const run = await call("hooks", "POST", "/v1/run", { body: { prompt: "add 4 and 5" } });
  assert.equal(run.json?.text, "done: 9", run.text);
  assert.equal((await instance()).goInstance, first.goInstance);
  assert.match(workers.hooks.output.join(""), /recovered panic in GET \/__test\/panic/);
});

test("a dead instance fails its requests and the next request starts a fresh one", async () => {
  const first = await instance();
  const slow = call("hooks", "GET", "/__test/sleep?ms=5000&id=cut");
  await sleep(100);
  const res = await call("hooks", "GET", "/__test/exit"); // a goroutine panics outside any request
  assert.equal(res.status, 500, res.text);
  assert.match(res.json.error.message, /Go instance stopped/);
  const cut = await slow;
  assert.equal(cut.status, 500, "a request in flight on the dead instance is answered");
  const next = await instance();
  assert.notEqual(next.goInstance, first.goInstance);
  assert.equal(next.instance, first.instance + 1);
  assert.equal(next.served, 1);
  assert.equal(next.js.startedAtLoad, false, "a fresh instance after a death starts in a request");
  const run = await call("hooks", "POST", "/v1/run", { body: { prompt: "add 6 and 7" } });
  assert.equal(run.json?.text, "done: 13", run.text);
});

test("a streamed run delivers text as the model streams it", async () => {
  const from = slowMock.streams.length;
  const res = await fetch(new URL("/v1/run", workers.hooks.url), {
    method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify({ prompt: "tell me slowly", stream: true }),
  });
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type"), /^text\/event-stream/);
  const decoder = new TextDecoder();
  let text = "", firstDelta;
  for await (const chunk of res.body) {
    text += decoder.decode(chunk, { stream: true });
    if (firstDelta === undefined && /event: text\n/.test(text)) firstDelta = { ...slowMock.streams[from] };
  }
  assert.ok(firstDelta, text);
  // The model sends 16 events, 150 ms apart: the first delta must have
  // reached the client long before the last one left the model.
  assert.ok(firstDelta.sent < firstDelta.total - 3, `first delta after ${firstDelta.sent} of ${firstDelta.total} model events`);
  const done = JSON.parse(text.match(/event: done\ndata: (.*)\n/)[1]);
  assert.equal(done.text, "one two three four five six seven eight nine ten eleven twelve");
});

test("a client that leaves a streamed run cancels it", async () => {
  const first = await instance();
  const logged = workers.hooks.output.length;
  const leave = new AbortController();
  // The direct socket: Miniflare's own entry worker would stand between.
  const res = await fetch(new URL("/v1/run", workers.hooks.direct), {
    method: "POST", headers: { "content-type": "application/json" }, signal: leave.signal,
    body: JSON.stringify({ prompt: "tell me very slowly", stream: true }), // about 10 s of model output
  });
  const reader = res.body.getReader();
  await reader.read(); // the stream has started
  await sleep(300);
  leave.abort();
  // workerd notices on a later write (request.signal and the stream's
  // cancel reach Go): the run ends long before the model would.
  let now;
  for (let i = 0; i < 100 && !/read stream: .*context canceled/.test(workers.hooks.output.slice(logged).join("")); i++) await sleep(50);
  assert.match(workers.hooks.output.slice(logged).join(""), /run failed: .*context canceled/);
  for (let i = 0; i < 40; i++) {
    now = await instance();
    if (now.inFlight === 1) break;
    await sleep(50);
  }
  assert.equal(now.inFlight, 1, "the abandoned run is still in flight");
  assert.equal(now.goInstance, first.goInstance);
});

test("MCP over HTTP+SSE: the Worker lists and calls an older server's tools", async () => {
  const tools = await call("hooks", "GET", "/v1/tools");
  assert.equal(tools.status, 200, tools.text);
  assert.deepEqual(tools.json.tools.filter((t) => t.source === "mcp").map((t) => t.name),
    ["old_weather", "old_explode", "old_greet", "old_survey", "old_echo", "old_delete_note"]);
  const client = new Client({ name: "toolnexus-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", workers.hooks.url)));
  try {
    const echo = await client.callTool({ name: "old_echo", arguments: { text: "over the event stream" } });
    assert.equal(echo.content[0].text, "over the event stream");
    const weather = await Promise.all(["Quito", "Lima", "Bogotá"].map((city) => client.callTool({ name: "old_weather", arguments: { city } })));
    assert.deepEqual(weather.map((r) => JSON.parse(r.content[0].text).city), ["Quito", "Lima", "Bogotá"]);
  } finally {
    await client.close();
  }
  for (let i = 0; i < 50 && mcp.stats.sseClosed < mcp.stats.sseOpened; i++) await sleep(50);
  assert.ok(mcp.stats.sseOpened >= 5);
  assert.equal(mcp.stats.sseClosed, mcp.stats.sseOpened, "every request closed its event stream");
});

test("no key or secret appears in what the Workers logged", async () => {
  const logged = Object.values(workers).flatMap((w) => w.output).join("");
  assert.match(logged, /worker: POST run 200/, "the Workers' log lines were captured");
  for (const s of SECRETS) assert.ok(!logged.includes(s), `a Worker logged a secret: ${s}`);
});
