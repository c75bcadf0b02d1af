// deep-scenarios.mjs — JSON nested far past the runtime's limit (1000
// levels), thrown at a loaded toolnexus wasm from every side it enters: a
// model reply (whole and streamed), tool-call arguments, an MCP server's
// tools/list and tools/call replies, a history, an answer, a waitFor
// answer, a JS tool's result and a generate reply (issue 15: ~9,000 levels
// overflowed the engine's stack; Node exited, Chromium never settled).
// Each must settle — a rejection with a message, or an error result — and
// the same module must still complete a normal run afterwards.
//
// Self-contained (no closure over this module), so the same source runs in
// Node (called directly) and in Chromium (handed to page.evaluate). It
// resolves to [{name, pass, detail, healthyAfter}].
//
//   const report = await deepScenarios({ module: fileURL, wasm: path, depths: [20000, 100000] });
//   const report = await page.evaluate(deepScenarios, { module: "/toolnexus.mjs", depths: [20000] });

export async function deepScenarios({ module, wasm, depths }) {
  const { load } = await import(module);
  const tnx = await load(wasm ? { wasm } : {});
  const deepText = (n) => '{"a":['.repeat(n / 2) + "1" + "]}".repeat(n / 2);
  const deepValue = (n) => { let v = 1; for (let i = 0; i < n / 2; i++) v = { a: [v] }; return v; };
  const json = (v) => new Response(typeof v === "string" ? v : JSON.stringify(v), { headers: { "content-type": "application/json" } });
  const toolTurn = (name, args) => json({ choices: [{ message: { role: "assistant", content: null,
    tool_calls: [{ id: "call_1", type: "function", function: { name, arguments: args } }] }, finish_reason: "tool_calls" }] });
  const textTurn = (text) => json({ choices: [{ message: { role: "assistant", content: text }, finish_reason: "stop" }] });
  const bodyOf = (init) => JSON.parse(typeof init.body === "string" ? init.body : new TextDecoder().decode(init.body));
  const model = (name, args) => async (url, init) => {
    const last = bodyOf(init).messages.at(-1);
    return last.role === "tool" ? textTurn("tool said: " + last.content) : toolTurn(name, args);
  };
  const rejects = async (fn) => { try { await fn(); return null; } catch (e) { return e; } };
  const within = (p, ms, what) => Promise.race([p, new Promise((_, fail) => setTimeout(() => fail(new Error(`did not settle in ${ms} ms: ${what}`)), ms))]);
  const NESTED = /nested more than 1000 levels|Maximum call stack|too deep/i;
  const openSchema = { type: "object" };
  let ran = 0;
  const counted = (name) => tnx.defineTool({ name, inputSchema: openSchema, run: () => { ran++; return "ran"; } });

  // mcpFetch is an MCP server in a fetch function: its tools/list or its
  // tools/call reply can be nested n levels.
  const mcpFetch = (deepList, deepCall) => async (url, init) => {
    const m = bodyOf(init);
    const reply = (result) => json(`{"jsonrpc":"2.0","id":${m.id},"result":${result}}`);
    const headers = { "content-type": "application/json", "mcp-session-id": "s1" };
    switch (m.method) {
      case "initialize": return new Response(JSON.stringify({ jsonrpc: "2.0", id: m.id, result: { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "deep", version: "1" } } }), { headers });
      case "tools/list": return reply(`{"tools":[{"name":"echo","inputSchema":${deepList ? deepText(deepList) : '{"type":"object"}'},"annotations":{"readOnlyHint":true}}]}`);
      case "tools/call": return reply(deepCall ? `{"content":[],"structuredContent":${deepText(deepCall)}}` : '{"content":[{"type":"text","text":"fine"}]}');
    }
    return new Response(null, { status: 202, headers });
  };

  const healthy = async () => {
    const tk = await tnx.createToolkit({ tools: [tnx.defineTool({ name: "add", inputSchema: openSchema, run: ({ a, b }) => String(a + b) })] });
    const c = await tnx.createClient({ baseURL: "https://model.test/v1", model: "m", fetch: model("add", '{"a":2,"b":3}') });
    const r = await c.run("add", tk);
    return r.status === "done" && r.text === "tool said: 5";
  };

  const scenarios = {};
  for (const n of depths) {
    scenarios[`a model reply nested ${n} levels rejects with a message`] = async () => {
      const c = await tnx.createClient({ baseURL: "https://model.test/v1", model: "m", retries: -1,
        fetch: async () => json(`{"choices":[{"message":{"role":"assistant","content":"x"}}],"x":${deepText(n)}}`) });
      const tk = await tnx.createToolkit([]);
      const err = await rejects(() => c.run("hi", tk));
      return [!!err && NESTED.test(err.message), err?.message];
    };
    scenarios[`a streamed model reply nested ${n} levels rejects`] = async () => {
      const c = await tnx.createClient({ baseURL: "https://model.test/v1", model: "m", retries: -1,
        fetch: async () => new Response(`data: {"choices":[{"delta":${deepText(n)}}]}\n\n`, { headers: { "content-type": "text/event-stream" } }) });
      const err = await rejects(async () => { for await (const e of c.stream("hi", await tnx.createToolkit([]))) void e; });
      return [!!err && NESTED.test(err.message), err?.message];
    };
    scenarios[`tool-call arguments nested ${n} levels are an error result; the run goes on`] = async () => {
      ran = 0;
      const c = await tnx.createClient({ baseURL: "https://model.test/v1", model: "m", fetch: model("t", deepText(n)) });
      const r = await c.run("go", await tnx.createToolkit({ tools: [counted("t")] }));
      return [r.status === "done" && r.toolCalls[0].isError && ran === 0 && NESTED.test(r.text), r.text.slice(0, 200)];
    };
    scenarios[`an MCP tools/list reply nested ${n} levels fails that server`] = async () => {
      const tk = await tnx.createToolkit({ mcpServers: { deep: { url: "https://mcp.test/mcp" } }, fetch: mcpFetch(n, 0) });
      const st = (await tk.mcpStatus()).deep;
      await tk.close();
      return [st.status === "failed" && NESTED.test(st.reason), JSON.stringify(st)];
    };
    scenarios[`an MCP tools/call reply nested ${n} levels is an error result`] = async () => {
      const tk = await tnx.createToolkit({ mcpServers: { deep: { url: "https://mcp.test/mcp" } }, fetch: mcpFetch(0, n) });
      const c = await tnx.createClient({ baseURL: "https://model.test/v1", model: "m", fetch: model("deep_echo", "{}") });
      const r = await c.run("go", tk);
      await tk.close();
      return [r.status === "done" && r.toolCalls[0].isError && NESTED.test(r.toolCalls[0].output), r.toolCalls[0]?.output];
    };
  }
  // JS values nested 20,000 levels and more already fail in JSON.stringify
  // (a RangeError the bridge catches); 2,000 gets past it to the Go check,
  // whose message they must then carry.
  for (const n of [2000, ...depths]) {
    const NESTED = n < 10_000 ? /1000 levels/ : /1000 levels|Maximum call stack|too deep/i;
    scenarios[`a history nested ${n} levels rejects`] = async () => {
      const c = await tnx.createClient({ baseURL: "https://model.test/v1", model: "m", fetch: async () => textTurn("no") });
      const tk = await tnx.createToolkit([]);
      const err = await rejects(() => c.run("hi", tk, { history: [{ role: "user", content: "x", extra: deepValue(n) }] }));
      return [!!err && NESTED.test(err.message), err?.message];
    };
    scenarios[`an answer nested ${n} levels rejects and nothing runs`] = async () => {
      ran = 0;
      const tk = await tnx.createToolkit({ tools: [{ ...counted("t"), needsApproval: true }] });
      const c = await tnx.createClient({ baseURL: "https://model.test/v1", model: "m", fetch: model("t", "{}") });
      const halted = await c.run("go", tk);
      const err = await rejects(() => c.runWithAnswer(tk, halted.messages, halted.pending, { id: halted.pending.id, ok: true, data: deepValue(n) }));
      return [halted.status === "pending" && !!err && NESTED.test(err.message) && ran === 0, err?.message];
    };
    scenarios[`a waitFor answer nested ${n} levels declines; the tool does not run`] = async () => {
      ran = 0;
      const tk = await tnx.createToolkit({ tools: [{ ...counted("t"), needsApproval: true }] });
      const c = await tnx.createClient({ baseURL: "https://model.test/v1", model: "m", fetch: model("t", "{}"),
        waitFor: (req) => ({ id: req.id, ok: true, data: deepValue(n) }) });
      const r = await c.run("go", tk);
      return [r.status === "done" && r.toolCalls[0].isError && ran === 0 && NESTED.test(r.toolCalls[0].output), r.toolCalls[0]?.output];
    };
    scenarios[`a JS tool result nested ${n} levels is an error result`] = async () => {
      const tk = await tnx.createToolkit({ tools: [tnx.defineTool({ name: "t", inputSchema: openSchema, run: () => ({ output: "x", metadata: deepValue(n) }) })] });
      const c = await tnx.createClient({ baseURL: "https://model.test/v1", model: "m", fetch: model("t", "{}") });
      const r = await c.run("go", tk);
      return [r.status === "done" && r.toolCalls[0].isError && NESTED.test(r.toolCalls[0].output), r.toolCalls[0]?.output];
    };
    scenarios[`a generate reply nested ${n} levels rejects`] = async () => {
      const c = await tnx.createClient({ model: "m", generate: async () => ({ text: "x", extra: deepValue(n) }) });
      const tk = await tnx.createToolkit([]);
      const err = await rejects(() => c.run("hi", tk));
      return [!!err && /generate must resolve to an object/.test(err.message), err?.message];
    };
  }

  const report = [];
  for (const [name, fn] of Object.entries(scenarios)) {
    let pass = false;
    let detail = "";
    try {
      [pass, detail] = await within(fn(), 60_000, name);
    } catch (e) {
      detail = "threw: " + (e?.message ?? e);
    }
    let healthyAfter = false;
    try {
      healthyAfter = await within(healthy(), 20_000, "healthy run");
    } catch (e) {
      detail += " | healthy run failed: " + (e?.message ?? e);
    }
    report.push({ name, pass: !!pass, detail: String(detail ?? "").slice(0, 300), healthyAfter });
  }
  return report;
}
