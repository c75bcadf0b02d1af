// mcp.test.mjs — remote MCP end to end, against a server built with the
// official SDK (tests/mcp-server.mjs) and the Worker's own /mcp:
//
//   1. Go natively: `go test -run TestMCPAgainstOfficialSDK ./core` with the
//      server's URL in TOOLNEXUS_MCP_URL.
//   2. The browser bundle under Node: createToolkit({mcpServers, waitFor}),
//      with a dead URL, a slow server and a stdio server beside it; the
//      approval policy (a destructive tool halts for approval, a readOnly
//      one runs) through client.run.
//   3. The browser bundle in headless chromium, answering the elicitation
//      with web/elicit-form.mjs.
//   4. The Worker on workerd (Miniflare) using the server through MCP_CONFIG,
//      and /v1/run halting before its destructive tool until /v1/resume.
//   5. The SDK's client against the Worker's POST /mcp (list, call, approval
//      by elicitation, API_TOKEN).
//
//   ./build.sh test runs it (test_mcp in scripts/mcp.sh); alone, after ./build.sh and
//   ./build.sh worker: cd tests && timeout 600 node --test --test-force-exit mcp.test.mjs

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { chromium } from "playwright-core";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { startMcpServer } from "./mcp-server.mjs";
import { startMockLLM, toolResultsOf } from "./mock-llm.mjs";
import { serve } from "../scripts/serve.mjs";
import { startWorker, workerDir } from "./worker-harness.mjs";
import { LAUNCH } from "./chromium.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));
const ROOT = join(here, "..");
const WEB = process.env.TOOLNEXUS_WEB ?? join(process.env.TOOLNEXUS_DIST ?? join(ROOT, "dist"), "web");
const T = { timeout: 60_000 };
const DEAD = "http://127.0.0.1:9/mcp"; // the discard port: nothing listens

let sdk; // the official-SDK server
let slow; // accepts connections and never answers

before(async () => {
  sdk = await startMcpServer();
  const hung = new Set();
  const server = createServer((req, res) => { hung.add(res); });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  slow = {
    url: `http://127.0.0.1:${server.address().port}/mcp`,
    close: () => new Promise((resolve) => {
      for (const res of hung) res.destroy();
      server.closeAllConnections?.();
      server.close(() => resolve());
    }),
  };
});

after(async () => {
  try { await sdk?.close(); } finally { await slow?.close(); }
});

// mcpServers is the browser-side config the Node and chromium tests share.
const mcpServers = () => ({
  sdk: { type: "remote", url: sdk.url, timeout: 10_000 },
  dead: { url: DEAD, timeout: 2_000 },
  slow: { url: slow.url, timeout: 500 },
  local: { command: "npx", args: ["some-mcp-server"] },
  off: { url: sdk.url, enabled: false },
});

function checkStatus(st) {
  assert.equal(st.sdk.status, "connected");
  assert.equal(st.sdk.tools, 6);
  assert.equal(st.sdk.transport, "streamable-http");
  assert.equal(st.dead.status, "failed");
  assert.equal(st.slow.status, "failed");
  assert.match(st.slow.reason, /timed out after 500 ms/);
  assert.equal(st.local.status, "failed");
  assert.match(st.local.reason, /stdio/);
  assert.equal(st.off.status, "disabled");
}

test("Go natively: TestMCPAgainstOfficialSDK against the SDK server", { timeout: 300_000 }, async () => {
  const out = await new Promise((resolve, reject) => {
    const p = spawn("go", ["test", "-count=1", "-run", "^TestMCPAgainstOfficialSDK$", "-v", "./core"], {
      cwd: ROOT, env: { ...process.env, TOOLNEXUS_MCP_URL: sdk.url }, stdio: ["ignore", "pipe", "pipe"],
    });
    let text = "";
    p.stdout.on("data", (c) => { text += c; });
    p.stderr.on("data", (c) => { text += c; });
    const timer = setTimeout(() => p.kill("SIGKILL"), 280_000);
    p.on("error", reject);
    p.on("close", (code) => { clearTimeout(timer); resolve({ code, text }); });
  });
  assert.equal(out.code, 0, out.text);
  assert.match(out.text, /--- PASS: TestMCPAgainstOfficialSDK/);
  assert.doesNotMatch(out.text, /SKIP/);
});

test("Node: the browser bundle uses the SDK server as a tool source", T, async () => {
  assert.ok(existsSync(join(WEB, "toolnexus-tools.wasm")), `no build in ${WEB}: run ./build.sh first`);
  const mod = await import(pathToFileURL(join(WEB, "toolnexus.mjs")).href);
  const tnx = await mod.load({ wasm: join(WEB, "toolnexus-tools.wasm") }); // the MCP client is in the tools build
  const asked = [];
  const closedBefore = sdk.stats.closed;
  const start = Date.now();
  const tk = await tnx.createToolkit({
    tools: [mod.defineTool({ name: "local_echo", description: "a JS tool", run: () => "js" })],
    mcpServers: mcpServers(),
    waitFor: async (request) => {
      asked.push(request);
      const data = request.prompt === "How do you like it?" ? { rating: "fine", again: false } : { name: "Ada" };
      return { id: request.id, ok: true, data };
    },
  });
  try {
    const took = Date.now() - start;
    assert.ok(took < 4_000, `createToolkit took ${took} ms: the dead and slow servers' timeouts must bound it`);
    checkStatus(await tk.mcpStatus());
    // (built-in tools, when the build has them, are not this test's business)
    const tools = (await tk.tools()).filter((t) => t.source === "mcp" || t.source === "js");
    assert.deepEqual(tools.map((t) => `${t.name}:${t.source}:${t.needsApproval}`),
      ["local_echo:js:false", "sdk_weather:mcp:false", "sdk_explode:mcp:false", "sdk_greet:mcp:true", "sdk_survey:mcp:true",
        "sdk_echo:mcp:false", "sdk_delete_note:mcp:true"]);
    assert.deepEqual(tools[1].inputSchema.required, ["city"]);

    const weather = await tk.execute("sdk_weather", { city: "Oslo" });
    assert.deepEqual(JSON.parse(weather.output), { city: "Oslo", tempC: 21, sky: "clear" });
    assert.equal(weather.isError, false);
    const boom = await tk.execute("sdk_explode", {});
    assert.equal(boom.isError, true);
    assert.equal(boom.output, "the volcano erupted\ntry again later");
    const hello = await tk.execute("sdk_greet", {});
    assert.equal(hello.output, "Hello, Ada!");
    assert.equal(asked.length, 1);
    assert.equal(asked[0].kind, "input");
    assert.equal(asked[0].prompt, "What is your name?");
    assert.equal(asked[0].data.schema.properties.name.type, "string");
    // survey's question comes on the session's GET stream, not the POST's.
    assert.equal((await tk.execute("sdk_survey", {})).output, 'accept: {"again":false,"rating":"fine"}');
    assert.equal(asked.length, 2);
  } finally {
    await tk.close();
  }
  assert.equal(sdk.stats.closed, closedBefore + 1, "close() ends the session with DELETE");
});

test("Node: the MCP approval policy — a destructive tool suspends for approval, a readOnly one runs directly", T, async () => {
  const mod = await import(pathToFileURL(join(WEB, "toolnexus.mjs")).href);
  const tnx = await mod.load({ wasm: join(WEB, "toolnexus-tools.wasm") }); // the MCP client is in the tools build
  // The model asks for each tool named in the prompt, then reports the result.
  const client = await tnx.createClient({
    model: "local",
    generate: async (req) => {
      const last = req.messages.at(-1);
      if (last.role === "tool") return { text: `result: ${last.content}` };
      const [name, args] = last.content.split(" ");
      return { toolCalls: [{ id: "c1", name, arguments: JSON.parse(args) }] };
    },
  });
  const tk = await tnx.createToolkit({ mcpServers: { sdk: { url: sdk.url } } });
  try {
    const read = await client.run('sdk_weather {"city":"Bergen"}', tk);
    assert.equal(read.status, "done");
    assert.match(read.text, /"city":"Bergen"/);

    const deletedBefore = sdk.stats.deleted;
    const halted = await client.run('sdk_delete_note {"id":"n1"}', tk);
    assert.equal(halted.status, "pending");
    assert.equal(halted.pending.kind, "approval");
    assert.equal(halted.pending.data.tool, "sdk_delete_note");
    assert.deepEqual(halted.pending.data.args, { id: "n1" });
    assert.equal(sdk.stats.deleted, deletedBefore, "nothing reached the server before the approval");
    const done = await client.runWithAnswer(tk, halted.messages, halted.pending, { id: halted.pending.id, ok: true });
    assert.equal(done.status, "done");
    assert.equal(done.text, "result: deleted note n1");
    assert.equal(sdk.stats.deleted, deletedBefore + 1);

    const declined = await client.run('sdk_delete_note {"id":"n2"}', tk);
    const refused = await client.runWithAnswer(tk, declined.messages, declined.pending, mod.answerDeclined(declined.pending.id, "keep it"));
    assert.match(refused.text, /keep it/);
    assert.equal(sdk.stats.deleted, deletedBefore + 1, "a declined call never reaches the server");
  } finally {
    await tk.close();
  }
  // The server's "approval" setting overrides the annotations; a bad one is refused by name.
  const never = await tnx.createToolkit({ mcpServers: { sdk: { url: sdk.url, approval: "never" } } });
  try {
    assert.ok((await never.tools()).filter((t) => t.source === "mcp").every((t) => !t.needsApproval));
  } finally {
    await never.close();
  }
  await assert.rejects(tnx.createToolkit({ mcpServers: { sdk: { url: sdk.url, approval: "sometimes" } } }), /server "sdk": approval must be/);
});

test("Node: a declined elicitation reaches the server as decline", T, async () => {
  const mod = await import(pathToFileURL(join(WEB, "toolnexus.mjs")).href);
  const tnx = await mod.load({ wasm: join(WEB, "toolnexus-tools.wasm") }); // the MCP client is in the tools build
  const tk = await tnx.createToolkit({
    mcpServers: { sdk: { url: sdk.url } },
    waitFor: async (request) => mod.answerDeclined(request.id, "no thanks"),
  });
  try {
    assert.equal((await tk.execute("sdk_greet", {})).output, "No name (decline)");
  } finally {
    await tk.close();
  }
  const bare = await tnx.createToolkit({ mcpServers: { sdk: { url: sdk.url } } });
  try {
    const r = await bare.execute("sdk_greet", {});
    assert.equal(r.isError, true, "without waitFor the client cannot answer an elicitation");
  } finally {
    await bare.close();
  }
});

test("Node: a tools/call that times out on an open event stream is an error result and is cancelled, with no unhandled rejection", T, async () => {
  // initialize and tools/list answer; tools/call opens an event stream and never answers.
  const received = [];
  const server = createServer(async (req, res) => {
    let body = "";
    for await (const c of req) body += c;
    const m = body ? JSON.parse(body) : {};
    received.push(m);
    const reply = (result) => res.writeHead(200, { "content-type": "application/json", "mcp-session-id": "h1" })
      .end(JSON.stringify({ jsonrpc: "2.0", id: m.id, result }));
    if (req.method === "DELETE") return res.writeHead(204).end();
    if (req.method !== "POST") return res.writeHead(405).end();
    if (!("id" in m)) return res.writeHead(202).end();
    if (m.method === "initialize") return reply({ protocolVersion: "2025-06-18", capabilities: { tools: {} }, serverInfo: { name: "hang", version: "1" } });
    if (m.method === "tools/list") return reply({ tools: [{ name: "hang", inputSchema: { type: "object" } }] });
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.write(": working on it\n\n");
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const mod = await import(pathToFileURL(join(WEB, "toolnexus.mjs")).href);
  const tnx = await mod.load({ wasm: join(WEB, "toolnexus-tools.wasm") }); // the MCP client is in the tools build
  const tk = await tnx.createToolkit({ mcpServers: { h: { url: `http://127.0.0.1:${server.address().port}/mcp`, timeout: 400 } } });
  try {
    const start = Date.now();
    const r = await tk.execute("h_hang", {});
    assert.equal(r.isError, true);
    assert.match(r.output, /timed out/);
    assert.ok(Date.now() - start < 3_000, "bounded by the server's timeout");
    // The server is told to stop: notifications/cancelled names the request.
    const call = received.find((m) => m.method === "tools/call");
    const cancelled = received.find((m) => m.method === "notifications/cancelled");
    assert.ok(cancelled, `no notifications/cancelled in ${JSON.stringify(received.map((m) => m.method))}`);
    assert.equal(cancelled.params.requestId, call.id);
    assert.match(cancelled.params.reason, /timed out/);
    // An aborted stream's cancel() rejects a moment later: give it the time
    // to surface (the test runner fails the test on an unhandled rejection).
    await new Promise((resolve) => setTimeout(resolve, 200));
  } finally {
    await tk.close();
    server.closeAllConnections?.();
    await new Promise((resolve) => server.close(() => resolve()));
  }
});

test("elicit-form: flat fields only, and nothing that looks like a secret", async () => {
  const { elicitFields, isElicitRequest } = await import(pathToFileURL(join(ROOT, "web", "elicit-form.mjs")).href);
  const { fields, refused, unsupported } = elicitFields({
    type: "object",
    properties: {
      name: { type: "string", title: "Name" },
      password: { type: "string" },
      apiKey: { type: "string" },
      code: { type: "string", format: "password" },
      passengers: { type: "integer", minimum: 1 },
      color: { type: "string", enum: ["r", "g"], enumNames: ["Red", "Green"] },
      size: { type: "string", oneOf: [{ const: "s", title: "Small" }, { const: "l", title: "Large" }] },
      ok: { type: "boolean", default: true },
      address: { type: "object", properties: {} },
    },
    required: ["name", "password"],
  });
  assert.deepEqual(fields.map((f) => `${f.name}:${f.type}${f.required ? "!" : ""}`),
    ["name:string!", "passengers:integer", "color:enum", "size:enum", "ok:boolean"]);
  assert.deepEqual(fields[2].options, [{ value: "r", label: "Red" }, { value: "g", label: "Green" }]);
  assert.deepEqual(fields[3].options.map((o) => o.label), ["Small", "Large"]);
  assert.deepEqual(refused, ["password", "apiKey", "code"]);
  assert.deepEqual(unsupported, ["address"]);
  assert.equal(isElicitRequest({ kind: "input", data: { schema: { type: "object", properties: {} } } }), true);
  assert.equal(isElicitRequest({ kind: "approval", data: { tool: "x" } }), false);
});


test("chromium: the browser build calls the SDK server and answers with the elicit form", { timeout: 90_000 }, async () => {
  const site = await serve({ root: WEB, port: 0 });
  const browser = await chromium.launch(LAUNCH);
  try {
    const context = await browser.newContext();
    context.setDefaultTimeout(20_000);
    const page = await context.newPage();
    const problems = [];
    page.on("pageerror", (e) => problems.push(e.message));
    await page.goto(site.url);
    await page.evaluate(async (servers) => {
      const mod = await import("/toolnexus.mjs");
      const tnx = await mod.load({ wasm: "/toolnexus-tools.wasm" }); // the MCP client is in the tools build
      // The page's own approval dialog renders the elicitation as a form.
      const waitFor = tnx.approvalDialog();
      const tk = await tnx.createToolkit({ mcpServers: servers, waitFor });
      window.tk = tk;
      window.mcpStat = await tk.mcpStatus();
      window.approvals = (await tk.tools()).filter((t) => t.source === "mcp").map((t) => `${t.name}:${t.needsApproval}`);
      window.weather = await tk.execute("sdk_weather", { city: "Lima" });
      window.greeting = tk.execute("sdk_greet", {}); // waits for the form
    }, mcpServers());
    checkStatus(await page.evaluate(() => window.mcpStat));
    assert.deepEqual(await page.evaluate(() => window.approvals), ["sdk_weather:false", "sdk_explode:false", "sdk_greet:true",
      "sdk_survey:true", "sdk_echo:false", "sdk_delete_note:true"]);
    const weather = await page.evaluate(() => window.weather);
    assert.deepEqual(JSON.parse(weather.output), { city: "Lima", tempC: 21, sky: "clear" });

    const dialog = page.getByRole("dialog", { name: "The agent needs input" });
    await dialog.waitFor();
    assert.match(await dialog.textContent(), /What is your name\?/);
    assert.equal(await dialog.locator("input[type=password]").count(), 0);
    await page.getByRole("button", { name: "Submit" }).click(); // empty: required
    assert.equal(await page.evaluate(() => document.activeElement?.dataset?.name), "name");
    await page.getByLabel("Name", { exact: true }).fill("Grace <b>Hopper</b>");
    await page.getByRole("button", { name: "Submit" }).click();
    const greeting = await page.evaluate(async () => window.greeting);
    assert.equal(greeting.output, "Hello, Grace <b>Hopper</b>!");

    // select, number and checkbox fields, asked on the GET stream
    await page.evaluate(() => { window.survey = window.tk.execute("sdk_survey", {}); });
    await page.getByRole("dialog", { name: "The agent needs input" }).filter({ hasText: "How do you like it?" }).waitFor();
    await page.getByLabel("rating", { exact: true }).selectOption({ label: "great" });
    await page.getByLabel("stars", { exact: true }).fill("9");
    await page.getByRole("button", { name: "Submit" }).click(); // 9 > maximum 5: refused
    assert.equal(await page.evaluate(() => document.activeElement?.dataset?.name), "stars");
    await page.getByLabel("stars", { exact: true }).fill("4");
    await page.getByLabel("again", { exact: true }).check();
    await page.getByRole("button", { name: "Submit" }).click();
    const survey = await page.evaluate(async () => { const r = await window.survey; await window.tk.close(); return r; });
    assert.equal(survey.output, 'accept: {"again":true,"rating":"great","stars":4}');
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
    await site.close();
  }
});

test("workerd: the Worker uses the SDK server through MCP_CONFIG", { timeout: 120_000 }, async () => {
  assert.ok(existsSync(join(workerDir, "build", "app.wasm")), `no Worker build in ${workerDir}: run ./build.sh worker`);
  const w = await startWorker({
    MCP_CONFIG: JSON.stringify({ mcpServers: {
      sdk: { url: sdk.url, headers: { "x-test": "${SDK_KEY}" }, timeout: 10_000 },
      dead: { url: DEAD, timeout: 2_000 },
    } }),
    SDK_KEY: "not-a-real-key",
  });
  try {
    const r = await w.call("GET", "/v1/tools");
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json.tools.map((t) => `${t.name}:${t.source}:${t.needsApproval}`),
      ["add:native:false", "refund:native:true", "sdk_weather:mcp:false", "sdk_explode:mcp:false", "sdk_greet:mcp:true",
        "sdk_survey:mcp:true", "sdk_echo:mcp:false", "sdk_delete_note:mcp:true"]);
    assert.ok(w.output.join("").includes("mcp server dead failed"), w.output.join(""));
    assert.ok(!w.output.join("").includes("not-a-real-key"), "header values are never logged");

    // And through the Worker's own /mcp: the SDK client → Worker → SDK server.
    const client = new Client({ name: "toolnexus-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", w.url)));
    try {
      const res = await client.callTool({ name: "sdk_weather", arguments: { city: "Quito" } });
      assert.deepEqual(JSON.parse(res.content[0].text), { city: "Quito", tempC: 21, sky: "clear" });
      const bad = await client.callTool({ name: "sdk_explode", arguments: {} });
      assert.equal(bad.isError, true);
      assert.equal(bad.content[0].text, "the volcano erupted\ntry again later");
    } finally {
      await client.close();
    }
  } finally {
    await w.dispose();
  }
});

test("workerd: /v1/run runs a readOnly MCP tool, halts before a destructive one, and /v1/resume runs it once approved", { timeout: 120_000 }, async () => {
  const llm = await startMockLLM({ script: [
    { toolCalls: [{ name: "sdk_weather", args: { city: "Lima" } }] },
    (req) => ({ text: `weather: ${toolResultsOf(req).at(-1).content}` }),
    { toolCalls: [{ name: "sdk_delete_note", args: { id: "w1" } }] },
    (req) => ({ text: `delete: ${toolResultsOf(req).at(-1).content}` }),
  ] });
  const w = await startWorker({
    LLM_BASE_URL: `${llm.url}/v1`, LLM_MODEL: "mock-model", LLM_API_KEY: "not-a-real-key",
    STATE_SECRET: "mcp-policy-state-secret-0123456789abcdef",
    MCP_CONFIG: JSON.stringify({ mcpServers: { sdk: { url: sdk.url, timeout: 10_000 } } }),
  });
  try {
    const read = await w.call("POST", "/v1/run", { body: { prompt: "weather in Lima" } });
    assert.equal(read.status, 200, read.text);
    assert.equal(read.json.status, "done", read.text);
    assert.match(read.json.text, /^weather: .*"city":"Lima"/);

    const before = sdk.stats.deleted;
    const halted = await w.call("POST", "/v1/run", { body: { prompt: "delete note w1" } });
    assert.equal(halted.status, 200, halted.text);
    assert.equal(halted.json.status, "pending", halted.text);
    assert.equal(halted.json.pending.kind, "approval");
    assert.equal(halted.json.pending.data.tool, "sdk_delete_note");
    assert.equal(sdk.stats.deleted, before, "nothing reached the MCP server before the approval");
    const done = await w.call("POST", "/v1/resume", { body: { state: halted.json.state, answer: { id: halted.json.pending.id, ok: true } } });
    assert.equal(done.status, 200, done.text);
    assert.equal(done.json.text, "delete: deleted note w1");
    assert.equal(sdk.stats.deleted, before + 1);
  } finally {
    await w.dispose();
    await llm.close();
  }
});

test("the SDK's client against the Worker's /mcp: list, call, approval by elicitation, API_TOKEN", { timeout: 120_000 }, async () => {
  const token = "mcp-test-token-123";
  const w = await startWorker({ API_TOKEN: token });
  const connect = async (elicit) => {
    const client = new Client({ name: "toolnexus-test", version: "1.0.0" }, elicit ? { capabilities: { elicitation: { form: {} } } } : {});
    if (elicit) client.setRequestHandler(ElicitRequestSchema, elicit);
    await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", w.url), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }));
    return client;
  };
  try {
    const anon = new Client({ name: "anon", version: "1.0.0" });
    await assert.rejects(anon.connect(new StreamableHTTPClientTransport(new URL("/mcp", w.url))), /401|unauthorized|bearer/i);

    const asked = [];
    const client = await connect(async (req) => { asked.push(req.params); return { action: "accept", content: {} }; });
    try {
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((t) => t.name), ["add", "refund"]);
      assert.deepEqual(tools[0].inputSchema.required, ["a", "b"]);
      const sum = await client.callTool({ name: "add", arguments: { a: 2, b: 3 } });
      assert.equal(sum.content[0].text, "5");
      const refund = await client.callTool({ name: "refund", arguments: { order: 42 } });
      assert.equal(refund.content[0].text, "refunded order 42");
      assert.equal(asked.length, 1);
      assert.match(asked[0].message, /refund/);
      assert.match(asked[0].message, /"order":42/);
    } finally {
      await client.close();
    }

    const decliner = await connect(async () => ({ action: "decline" }));
    try {
      const r = await decliner.callTool({ name: "refund", arguments: { order: 7 } });
      assert.equal(r.isError, true);
      assert.match(r.content[0].text, /declined/);
    } finally {
      await decliner.close();
    }

    const plain = await connect(null);
    try {
      const r = await plain.callTool({ name: "refund", arguments: { order: 7 } });
      assert.equal(r.isError, true);
      assert.match(r.content[0].text, /approval is required/);
    } finally {
      await plain.close();
    }
  } finally {
    await w.dispose();
  }
});
