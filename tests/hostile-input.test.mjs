// hostile-input.test.mjs — issue 15, end to end:
//   1. JSON nested 20,000 and 100,000 levels from every side it enters the
//      browser build (tests/deep-scenarios.mjs), in Node and in Chromium:
//      each settles (a rejection with a message, or an error result) and
//      the same module keeps serving. Before the limit, Node exited with
//      "RangeError: Maximum call stack size exceeded" and Chromium's promise
//      never settled.
//   2. The Worker on workerd: a request body of that depth is 400
//      json_too_deep and the next request works; a model reply of that depth
//      is a prompt 502, not a hang.
//   3. Approval edits: the records carry the arguments that ran, with the
//      model's beside them (originalArgs), through toolnexus.mjs's waitFor
//      and through the Worker's /v1/resume.
//
//   ./build.sh && ./build.sh worker && cd tests && timeout 600 node --test --test-force-exit hostile-input.test.mjs

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { deepScenarios } from "./deep-scenarios.mjs";
import { startFaultyLLM } from "./mock-faults.mjs";
import { startWorker } from "./worker-harness.mjs";
import { checkReport, reportInChromium } from "./scenario-report.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));
const DIST = process.env.TOOLNEXUS_DIST ?? join(here, "..", "dist");
const WEB = join(DIST, "web");
const DEPTHS = [20_000, 100_000];
const deepText = (n) => '{"a":['.repeat(n / 2) + "1" + "]}".repeat(n / 2);

describe("JSON nested past the limit never kills the wasm runtime", () => {
  test("in Node", { timeout: 240_000 }, async (t) => {
    const report = await deepScenarios({ module: pathToFileURL(join(WEB, "toolnexus.mjs")).href, wasm: join(WEB, "toolnexus-tools.wasm"), depths: DEPTHS }); // MCP scenarios: the tools build
    await checkReport(t, report, 20);
  });

  test("in Chromium: every run settles", { timeout: 300_000 }, async (t) => {
    const report = await reportInChromium(WEB, deepScenarios, { module: "/toolnexus.mjs", depths: DEPTHS });
    await checkReport(t, report, 20);
  });
});

describe("approval edits are recorded through toolnexus.mjs (Node)", () => {
  let tnx;
  before(async () => {
    const { load } = await import(pathToFileURL(join(WEB, "toolnexus.mjs")).href);
    tnx = await load({ wasm: join(WEB, "toolnexus.wasm") });
  });

  // model asks for refund {order: "42"} and then repeats the tool's output.
  const model = async (url, init) => {
    const body = JSON.parse(typeof init.body === "string" ? init.body : new TextDecoder().decode(init.body));
    const last = body.messages.at(-1);
    const message = last.role === "tool" ? { role: "assistant", content: "done: " + last.content }
      : { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "refund", arguments: '{"order":"42"}' } }] };
    if (body.stream) {
      const chunk = { choices: [{ delta: message, finish_reason: "stop" }] };
      if (message.tool_calls) chunk.choices[0].delta = { tool_calls: [{ index: 0, ...message.tool_calls[0] }] };
      return new Response(`data: ${JSON.stringify(chunk)}\n\ndata: [DONE]\n\n`, { headers: { "content-type": "text/event-stream" } });
    }
    return new Response(JSON.stringify({ choices: [{ message, finish_reason: "stop" }] }), { headers: { "content-type": "application/json" } });
  };

  for (const streamed of [false, true]) {
    test(`waitFor approves with data.args edited (${streamed ? "stream" : "run"})`, async () => {
      const ran = [];
      const tk = await tnx.createToolkit({ tools: [tnx.defineTool({
        name: "refund", needsApproval: true,
        inputSchema: { type: "object", properties: { order: { type: "string" } }, required: ["order"] },
        run: ({ order }) => { ran.push(order); return `refunded order ${order}`; },
      })] });
      const client = await tnx.createClient({ baseURL: "https://model.test/v1", model: "m", fetch: model,
        waitFor: (req) => ({ id: req.id, ok: true, data: { args: { order: "999" } } }) });
      let result;
      const events = [];
      if (streamed) {
        for await (const e of client.stream("refund order 42", tk)) {
          events.push(e);
          if (e.type === "done") result = e.result;
        }
      } else {
        result = await client.run("refund order 42", tk);
      }
      assert.deepEqual(ran, ["999"]);
      assert.equal(result.text, "done: refunded order 999");
      assert.deepEqual(result.toolCalls[0].args, { order: "999" });
      assert.deepEqual(result.toolCalls[0].originalArgs, { order: "42" });
      const call = result.messages.find((m) => m.tool_calls).tool_calls[0];
      assert.equal(call.function.arguments, '{"order":"999"}', "the transcript's tool call says what ran");
      if (streamed) {
        const done = events.find((e) => e.type === "tool_result");
        assert.equal(done.args, '{"order":"999"}');
        assert.equal(done.originalArgs, '{"order":"42"}');
      }
    });
  }
});

describe("the Worker on workerd", () => {
  let mock;
  let worker;
  // rule: "deep N" answers with a reply nested N levels; "refund" asks for
  // refund {order: 42}; a tool result is echoed; anything else is "hello".
  function rule(request) {
    const msgs = request.body.messages;
    const last = msgs.at(-1);
    const prompt = String(msgs.filter((m) => m.role === "user").at(-1)?.content ?? "");
    if (last.role === "tool") return { text: "done: " + last.content };
    const deep = prompt.match(/^deep (\d+)/);
    if (deep) return { raw: `{"choices":[{"message":{"role":"assistant","content":"x"}}],"x":${deepText(Number(deep[1]))}}` };
    if (prompt.startsWith("refund")) return { toolCalls: [{ name: "refund", args: { order: 42 } }] };
    return { text: "hello" };
  }

  before(async () => {
    const script = new Proxy([], { get: (t, k) => (typeof k === "string" && /^\d+$/.test(k) ? rule : t[k]) });
    mock = await startFaultyLLM({ script });
    worker = await startWorker({ LLM_BASE_URL: `${mock.url}/v1`, LLM_MODEL: "m", LLM_API_KEY: "sk-hostile-0123456789",
      STATE_SECRET: "hostile-state-secret-0123456789abcdef", LLM_RETRIES: "0" });
  });
  after(async () => {
    await worker?.dispose().catch(() => {});
    await mock?.close();
  });

  for (const n of DEPTHS) {
    test(`a request body nested ${n} levels is 400 json_too_deep; the next request works`, { timeout: 60_000 }, async () => {
      for (const [path, body] of [
        ["/v1/run", `{"prompt":"hi","messages":[${deepText(n)}]}`],
        ["/v1/resume", `{"state":"x","answer":{"id":"r","ok":true,"data":${deepText(n)}}}`],
        ["/v1/chat/completions", `{"messages":[{"role":"user","content":"hi","x":${deepText(n)}}]}`],
      ]) {
        const res = await worker.call("POST", path, { body });
        assert.equal(res.status, 400, `${path}: ${res.text.slice(0, 300)}`);
        assert.equal(res.json.error.code, "json_too_deep");
        const next = await worker.call("POST", "/v1/run", { body: { prompt: "hi" } });
        assert.equal(next.status, 200, next.text);
        assert.equal(next.json.text, "hello");
      }
      const mcp = await worker.call("POST", "/mcp", { body: `{"jsonrpc":"2.0","id":1,"method":"ping","params":${deepText(n)}}` });
      assert.equal(mcp.status, 400, mcp.text.slice(0, 300));
      assert.equal(mcp.json.error.code, -32700);
    });

    test(`a model reply nested ${n} levels is a prompt 502, not a hang`, { timeout: 60_000 }, async () => {
      const t0 = Date.now();
      const res = await worker.call("POST", "/v1/run", { body: { prompt: `deep ${n}` } });
      const ms = Date.now() - t0;
      assert.equal(res.status, 502, res.text.slice(0, 300));
      assert.equal(res.json.error.code, "upstream_error");
      assert.match(res.json.error.message, /nested more than 1000 levels/);
      assert.ok(ms < 20_000, `answered after ${ms} ms`);
      assert.equal((await worker.call("POST", "/v1/run", { body: { prompt: "hi" } })).json.text, "hello");
    });
  }

  test("/v1/resume with answer.data.args records what ran and what was asked", { timeout: 60_000 }, async () => {
    const run = await worker.call("POST", "/v1/run", { body: { prompt: "refund order 42" } });
    assert.equal(run.json.status, "pending", run.text);
    const res = await worker.call("POST", "/v1/resume", { body: { state: run.json.state,
      answer: { id: run.json.pending.id, ok: true, data: { args: { order: 999 } } } } });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.json.text, "done: refunded order 999");
    assert.deepEqual(res.json.toolCalls[0].args, { order: 999 });
    assert.deepEqual(res.json.toolCalls[0].originalArgs, { order: 42 });
    const call = res.json.messages.find((m) => m.tool_calls).tool_calls[0];
    assert.equal(call.function.arguments, '{"order":999}');
  });
});
