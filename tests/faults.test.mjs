// faults.test.mjs — faults from both sides of the runtime (issue 8):
//   1. JS-side faults (tools that throw or never settle, waitFor and generate
//      that throw, fetch that rejects, malformed API calls) against one loaded
//      wasm, in Node and in Chromium: each is an error result or a rejected
//      Promise, and the next call on the same module works.
//   2. Upstream faults over real sockets (tests/mock-faults.mjs) through the
//      browser build in Node: 429 + Retry-After, 500/502/503 then success, a
//      reset connection, a body cut off mid-JSON, a stalled stream, a reply
//      with no choices, invalid tool-call arguments. A failed run rejects with
//      err.result holding everything completed before the failure.
//   3. The same upstream faults through the Worker on workerd (Miniflare).
//
//   ./build.sh && ./build.sh worker && cd tests && timeout 600 node --test --test-force-exit faults.test.mjs

import { after, before, describe, test } from "node:test";
import { spawn } from "node:child_process";
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { startFaultyLLM } from "./mock-faults.mjs";
import { runtimeScenarios } from "./runtime-scenarios.mjs";
import { startWorker } from "./worker-harness.mjs";
import { checkReport, reportInChromium } from "./scenario-report.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));
const DIST = process.env.TOOLNEXUS_DIST ?? join(here, "..", "dist");
const WEB = process.env.TOOLNEXUS_WEB ?? join(DIST, "web");
const T = { timeout: 60_000 };

// Rejections nobody handled, as the child processes of the socket-level
// faults reported them (see faults-child.mjs and the TODO test).
const unhandled = [];

// child runs one socket-level fault in its own process and returns its report.
function child(kind) {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [join(here, "faults-child.mjs"), WEB, kind], { stdio: ["ignore", "pipe", "pipe"], timeout: 60_000 });
    let out = "";
    p.stdout.on("data", (c) => { out += c; });
    p.stderr.on("data", (c) => { out += c; });
    p.on("error", reject);
    p.on("close", (code) => {
      const m = out.match(/CHILDJSON (\{.*\})/);
      if (!m) return reject(new Error(`faults-child ${kind} exited ${code} without a report: ${out.slice(-2000)}`));
      const report = JSON.parse(m[1]);
      unhandled.push(...report.unhandled.map((u) => `${kind}: ${u}`));
      resolve(report);
    });
  });
}

describe("JS-side faults never kill the wasm runtime", () => {
  test("in Node", { timeout: 240_000 }, async (t) => {
    const report = await runtimeScenarios({ module: pathToFileURL(join(WEB, "toolnexus.mjs")).href, wasm: join(WEB, "toolnexus.wasm") });
    await checkReport(t, report, 10);
  });

  test("in Chromium", { timeout: 240_000 }, async (t) => {
    const report = await reportInChromium(WEB, runtimeScenarios, { module: "/toolnexus.mjs" });
    await checkReport(t, report, 10);
  });
});

describe("upstream faults through the browser build in Node (real sockets)", () => {
  let tnx;
  let calls; // executions of the add tool
  let tk;
  before(async () => {
    const mod = await import(pathToFileURL(join(WEB, "toolnexus.mjs")).href);
    tnx = await mod.load({ wasm: join(WEB, "toolnexus.wasm") });
    calls = 0;
    tk = await tnx.createToolkit({ tools: [tnx.defineTool({
      name: "add", description: "add a and b",
      inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
      run: ({ a, b }) => { calls++; return String(a + b); },
    })] });
  });

  const ADD = { toolCalls: [{ name: "add", args: { a: 2, b: 3 } }] };

  // withMock runs fn against a fresh faulty mock and a client on it.
  async function withMock(script, clientOptions, fn) {
    const mock = await startFaultyLLM({ script });
    try {
      const client = await tnx.createClient({ baseURL: `${mock.url}/v1`, model: "m", apiKey: "k", retryBaseMs: 5, ...clientOptions });
      return await fn(client, mock);
    } finally {
      await mock.close();
    }
  }

  // failsAfterTool checks a rejection whose err.result holds the completed tool turn.
  function assertPartial(err, pattern) {
    assert.ok(err instanceof Error, "the run must reject");
    assert.match(err.message, pattern);
    assert.ok(err.result, `no err.result on: ${err.message}`);
    assert.equal(err.result.toolCalls.length, 1, JSON.stringify(err.result));
    assert.equal(err.result.toolCalls[0].output, "5");
    const roles = err.result.messages.map((m) => m.role);
    assert.deepEqual(roles, ["user", "assistant", "tool"], "the transcript keeps the prompt, the call and its result");
  }

  test("429 with Retry-After: 1 waits about a second, then succeeds", T, async () => {
    await withMock([{ status: 429, headers: { "retry-after": "1" } }, { text: "fine" }], {}, async (client, mock) => {
      const t0 = Date.now();
      const r = await client.run("hi", tk);
      const ms = Date.now() - t0;
      assert.equal(r.text, "fine");
      assert.equal(mock.requests.length, 2);
      assert.ok(ms >= 900 && ms < 5000, `retried after ${ms} ms, want about 1000`);
    });
  });

  test("500, 502, 503 then success: three retries and one tool execution", T, async () => {
    const before = calls;
    await withMock([ADD, { status: 500 }, { status: 502 }, { status: 503 }, { text: "sum is 5" }], { retries: 3 }, async (client, mock) => {
      const r = await client.run("add", tk);
      assert.equal(r.status, "done");
      assert.equal(r.text, "sum is 5");
      assert.equal(mock.requests.length, 5);
      assert.equal(calls - before, 1, "a retried model request must not re-run the tool");
    });
  });

  test("a 5xx past the retry budget rejects with the status and the partial result", T, async () => {
    await withMock([ADD, { status: 503 }, { status: 503 }], { retries: 1 }, async (client) => {
      const err = await client.run("add", tk).then(() => null, (e) => e);
      assertPartial(err, /503/);
    });
  });

  test("a reset connection is retried; when it persists the run rejects with the partial result", T, async () => {
    await withMock([{ reset: true }, { text: "after reset" }], { retries: 1 }, async (client) => {
      assert.equal((await client.run("hi", tk)).text, "after reset");
    });
    await withMock([ADD, { reset: true }, { reset: true }], { retries: 1 }, async (client, mock) => {
      const err = await client.run("add", tk).then(() => null, (e) => e);
      assertPartial(err, /fetch failed|reset|socket|terminated|network/i);
      assert.equal(mock.requests.length, 3);
    });
  });

  // These three run in a child process: see faults-child.mjs.
  test("a body cut off mid-JSON (connection dies) rejects with the partial result", T, async () => {
    const r = await child("cut");
    assertPartial(Object.assign(new Error(r.message ?? "resolved"), { result: r.result }), /terminated|fetch|read/i);
    assert.equal(r.calls, 1);
  });

  test("a complete reply with truncated JSON is a clear error with the partial result", T, async () => {
    await withMock([ADD, { truncated: 60 }], { retries: -1 }, async (client) => {
      const err = await client.run("add", tk).then(() => null, (e) => e);
      assertPartial(err, /JSON|json|parse|invalid/);
    });
  });

  test("a reply with no choices is a clear error with the partial result", T, async () => {
    await withMock([ADD, { raw: '{"id":"x","choices":[]}' }], { retries: -1 }, async (client) => {
      const err = await client.run("add", tk).then(() => null, (e) => e);
      assertPartial(err, /no choices/);
    });
  });

  test("a stream stalled past timeoutMs rejects in time with the partial result", T, async () => {
    const r = await child("stall-stream");
    assert.ok(r.ms >= 1400 && r.ms < 8000, `gave up after ${r.ms} ms, want about 1500`);
    assertPartial(Object.assign(new Error(r.message ?? "resolved"), { result: r.result }), /deadline|timeout|timed out|context/i);
    assert.ok(r.events.includes("tool_result"), `events before the stall: ${r.events}`);
  });

  test("a non-streamed reply stalled mid-body times out too", T, async () => {
    const r = await child("stall-run");
    assert.ok(r.ms >= 1400 && r.ms < 8000, `gave up after ${r.ms} ms`);
    assertPartial(Object.assign(new Error(r.message ?? "resolved"), { result: r.result }), /deadline|timeout|timed out|context/i);
  });

  test("invalid JSON tool arguments are fed back as an error result and the run continues", T, async () => {
    const before = calls;
    await withMock([{ toolCalls: [{ name: "add", args: '{"a":2,' }] }, (req) => ({ text: "model saw: " + req.body.messages.at(-1).content })],
      {}, async (client, mock) => {
        const r = await client.run("add", tk);
        assert.equal(r.status, "done");
        assert.equal(r.toolCalls[0].isError, true);
        assert.match(r.text, /^model saw: .*(JSON|json|argument)/);
        assert.equal(calls - before, 0, "the tool must not run with arguments that do not parse");
        assert.equal(mock.requests.length, 2);
      });
  });

  // jsbridge/fetch.go streamBody.Close cancels a body that already errored
  // (connection cut: "TypeError: terminated"; deadline: AbortError); the
  // Promise of reader.cancel() then rejects, and left unhandled it ends a
  // Node host (default --unhandled-rejections=throw). Fixed in d736a70.
  test("no unhandled rejection escaped the cut and stalled bodies (a Node process would exit)", T, async () => {
    assert.deepEqual(unhandled, []);
  });

  test("after all of the above the same client and module still work", T, async () => {
    await withMock([ADD, { text: "ok" }], {}, async (client) => {
      assert.equal((await client.run("add", tk)).text, "ok");
    });
  });
});

describe("upstream faults through the Worker on workerd", () => {
  const KEY = "sk-faults-provider-key-91b2";
  const SECRET = "faults-state-secret-0123456789abcdef";
  let mock;
  let worker;
  const attempts = {};

  // rule picks the mock's reply from the prompt; "add then X" first calls
  // add, then does X once the tool result comes back. The count of attempts
  // per (prompt, phase) drives the retry cases.
  function rule(request) {
    const msgs = request.body.messages;
    const last = msgs.at(-1);
    const prompt = String(msgs.filter((m) => m.role === "user").at(-1)?.content ?? "");
    const after = last.role === "tool";
    const key = `${prompt}|${after}`;
    const n = attempts[key] = (attempts[key] ?? 0) + 1;
    const action = prompt.startsWith("add then ") ? (after ? prompt.slice(9) : "add") : after ? "echo" : prompt;
    const kind = action.split("#")[0];
    switch (kind) {
      case "add": return { toolCalls: [{ name: "add", args: { a: 2, b: 3 } }] };
      case "echo": return { text: "done: " + last.content };
      case "reset": return { reset: true };
      case "cut": return { cut: 40 };
      case "truncated": return { truncated: 60 };
      case "nochoices": return { raw: '{"id":"x","choices":[]}' };
      case "stall": return { stall: 0 };
      case "429": return n === 1 ? { status: 429, headers: { "retry-after": "1" } } : { text: "ok after 429" };
      case "5xx": return n <= 3 ? { status: [500, 502, 503][n - 1] } : { text: "ok after 5xx" };
      case "badargs": return { toolCalls: [{ name: "add", args: '{"a":2,' }] };
      default: return { text: "hello" };
    }
  }

  before(async () => {
    const script = new Proxy([], { get: (t, k) => (typeof k === "string" && /^\d+$/.test(k) ? rule : t[k]) });
    mock = await startFaultyLLM({ script });
    worker = await startWorker({ LLM_BASE_URL: `${mock.url}/v1`, LLM_MODEL: "m", LLM_API_KEY: KEY, STATE_SECRET: SECRET, LLM_RETRIES: "3",
      LLM_TIMEOUT_SECONDS: "8" });
  });
  after(async () => {
    await worker?.dispose().catch(() => {});
    await mock?.close();
  });

  const run = async (prompt, init = {}) => {
    const res = await worker.call("POST", "/v1/run", { body: { prompt }, ...init });
    for (const s of [KEY, SECRET]) assert.ok(!res.text.includes(s), `a secret in: ${res.text}`);
    return res;
  };
  const requestsFor = (prompt) => mock.requests.filter((r) => r.body.messages.some((m) => m.role === "user" && m.content === prompt)).length;

  test("429 with Retry-After, then success", T, async () => {
    const t0 = Date.now();
    const res = await run("429#w");
    assert.equal(res.status, 200, res.text);
    assert.equal(res.json.text, "ok after 429");
    assert.ok(Date.now() - t0 >= 900, "Retry-After: 1 was honoured");
  });

  test("500, 502, 503 then success", T, async () => {
    const res = await run("5xx#w");
    assert.equal(res.status, 200, res.text);
    assert.equal(res.json.text, "ok after 5xx");
    assert.equal(requestsFor("5xx#w"), 4);
  });

  for (const fault of ["reset", "cut", "truncated", "nochoices"]) {
    test(`${fault}: 502 upstream_error carrying the partial result; the Worker stays up`, T, async () => {
      const prompt = `add then ${fault}#w`;
      const res = await run(prompt);
      assert.equal(res.status, 502, res.text);
      assert.equal(res.json.error.code, "upstream_error");
      assert.ok(res.json.error.message.length > 10);
      const partial = res.json.result;
      assert.ok(partial, `no partial result: ${res.text}`);
      assert.equal(partial.toolCalls[0].output, "5");
      assert.deepEqual(partial.messages.map((m) => m.role), ["user", "assistant", "tool"]);
      assert.equal((await run(`${fault} then fine`)).status, 200, "the next request works");
    });
  }

  test("invalid JSON tool arguments: an error result goes to the model and the run ends done", T, async () => {
    const res = await run("add then echo#badargs");
    assert.equal(res.status, 200, res.text);
    const bad = await run("badargs#w");
    assert.equal(bad.status, 200, bad.text);
    assert.equal(bad.json.status, "done");
    assert.equal(bad.json.toolCalls[0].isError, true);
    assert.match(bad.json.text, /^done: .*(JSON|json|argument)/);
  });

  test("stall: the caller can give up, and the Worker keeps serving", T, async () => {
    const err = await fetch(new URL("/v1/run", worker.url), {
      method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ prompt: "add then stall#w" }), signal: AbortSignal.timeout(1000),
    }).then((r) => r.text()).then(() => null, (e) => e);
    assert.equal(err?.name, "TimeoutError", "the stalled upstream held the request open");
    assert.equal((await worker.call("GET", "/healthz")).status, 200);
    assert.equal((await run("hi after stall")).json.text, "hello");
  });

  // LLM_TIMEOUT_SECONDS bounds the run (worker/config.go; before it the
  // Worker set no deadline and a stalled provider held the request open).
  test("stall: a stalled upstream is a 504 upstream_timeout with the partial result", T, async () => {
    const t0 = Date.now();
    const res = await fetch(new URL("/v1/run", worker.url), {
      method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ prompt: "add then stall#504" }), signal: AbortSignal.timeout(15_000),
    });
    assert.equal(res.status, 504);
    assert.ok(Date.now() - t0 >= 7500, "not before LLM_TIMEOUT_SECONDS");
    const body = await res.json();
    assert.equal(body.error.code, "upstream_timeout");
    assert.equal(body.result.toolCalls[0].output, "5");
  });
});
