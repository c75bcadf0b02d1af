// runtime-scenarios.mjs — faults thrown at a loaded toolnexus wasm from the JS
// side: tools that throw, never settle or return what JSON cannot encode, a
// waitFor that throws or answers for another call, a fetch that rejects, a
// generate that throws, and malformed calls into the low-level API. After
// every scenario the same loaded module must still complete a normal run.
//
// runtimeScenarios is self-contained (no closure over this module), so the
// same source runs in Node (called directly) and in Chromium (handed to
// page.evaluate). It resolves to [{name, pass, detail, healthyAfter}].
//
//   import { runtimeScenarios } from "./runtime-scenarios.mjs";
//   const report = await runtimeScenarios({ module: fileURL, wasm: path });   // Node
//   const report = await page.evaluate(runtimeScenarios, { module: "/toolnexus.mjs" });

export async function runtimeScenarios({ module, wasm, only }) {
  const { load } = await import(module);
  const tnx = await load(wasm ? { wasm } : {});
  const enc = (v) => new Response(JSON.stringify(v), { headers: { "content-type": "application/json" } });
  const toolTurn = (name, args) => enc({ choices: [{ message: { role: "assistant", content: null,
    tool_calls: [{ id: "call_1", type: "function", function: { name, arguments: typeof args === "string" ? args : JSON.stringify(args) } }] },
  finish_reason: "tool_calls" }] });
  const textTurn = (text) => enc({ choices: [{ message: { role: "assistant", content: text }, finish_reason: "stop" }] });
  const bodyOf = (init) => JSON.parse(typeof init.body === "string" ? init.body : new TextDecoder().decode(init.body));
  // model: the first request asks for one tool call, the next echoes the tool result.
  const model = (name, args) => async (url, init) => {
    const last = bodyOf(init).messages.at(-1);
    return last.role === "tool" ? textTurn("tool said: " + last.content) : toolTurn(name, args);
  };
  const schema = { type: "object", properties: { order: { type: "integer" } }, required: ["order"] };
  const withTimeout = (p, ms, what) => Promise.race([p, new Promise((_, fail) => setTimeout(() => fail(new Error(`timed out after ${ms} ms: ${what}`)), ms))]);
  const rejects = async (fn) => { try { await fn(); return null; } catch (e) { return e; } };

  // healthy runs one normal tool turn on the same loaded module.
  const healthy = async () => {
    const tk = await tnx.createToolkit({ tools: [tnx.defineTool({ name: "add", inputSchema: { type: "object" }, run: ({ a, b }) => String(a + b) })] });
    const c = await tnx.createClient({ baseURL: "https://model.test/v1", model: "m", fetch: model("add", { a: 2, b: 3 }) });
    const r = await c.run("add", tk);
    return r.status === "done" && r.text === "tool said: 5";
  };

  const scenarios = {
    async "a JS tool that throws becomes an error result and the run continues"() {
      const tk = await tnx.createToolkit({ tools: [tnx.defineTool({ name: "t", inputSchema: schema, run: () => { throw new Error("boom <b>x</b>"); } })] });
      const c = await tnx.createClient({ baseURL: "https://model.test/v1", model: "m", fetch: model("t", { order: 1 }) });
      const r = await c.run("go", tk);
      return [r.status === "done" && r.toolCalls[0].isError && /boom <b>x<\/b>/.test(r.toolCalls[0].output) && /boom/.test(r.text), JSON.stringify(r.toolCalls)];
    },
    async "a JS tool that rejects with a non-Error value becomes an error result"() {
      const tk = await tnx.createToolkit({ tools: [tnx.defineTool({ name: "t", inputSchema: schema, run: async () => { throw { weird: [1, 2] }; } })] });
      const c = await tnx.createClient({ baseURL: "https://model.test/v1", model: "m", fetch: model("t", { order: 1 }) });
      const r = await c.run("go", tk);
      return [r.status === "done" && r.toolCalls[0].isError, JSON.stringify(r.toolCalls)];
    },
    async "a JS tool that never settles times out per toolTimeoutMs"() {
      const tk = await tnx.createToolkit({ tools: [tnx.defineTool({ name: "t", inputSchema: schema, run: () => new Promise(() => {}) })] });
      const c = await tnx.createClient({ baseURL: "https://model.test/v1", model: "m", toolTimeoutMs: 300, fetch: model("t", { order: 1 }) });
      const t0 = Date.now();
      const r = await c.run("go", tk);
      const ms = Date.now() - t0;
      return [r.status === "done" && r.toolCalls[0].isError && ms >= 250 && ms < 5000, `${ms} ms ${JSON.stringify(r.toolCalls)}`];
    },
    async "a JS tool returning a circular object, a BigInt or a Symbol is an error or text, not a crash"() {
      const circular = {}; circular.self = circular;
      const outs = [];
      for (const value of [circular, 10n, Symbol("s"), undefined, () => 1]) {
        const tk = await tnx.createToolkit({ tools: [tnx.defineTool({ name: "t", inputSchema: schema, run: () => value })] });
        const c = await tnx.createClient({ baseURL: "https://model.test/v1", model: "m", fetch: model("t", { order: 1 }) });
        const r = await withTimeout(c.run("go", tk), 10_000, typeof value);
        outs.push(r.status);
      }
      return [outs.every((s) => s === "done"), outs.join(",")];
    },
    async "a waitFor that throws is a decline: the tool does not run"() {
      let ran = 0;
      const tk = await tnx.createToolkit({ tools: [tnx.defineTool({ name: "t", inputSchema: schema, needsApproval: true, run: () => { ran++; return "ran"; } })] });
      const c = await tnx.createClient({ baseURL: "https://model.test/v1", model: "m", fetch: model("t", { order: 1 }),
        waitFor: () => { throw new Error("the dialog crashed"); } });
      const r = await c.run("go", tk);
      return [ran === 0 && r.status === "done" && /the dialog crashed/.test(r.text), `ran=${ran} ${r.text}`];
    },
    async "a waitFor answering for another call id, or with junk, never runs the tool"() {
      let ran = 0;
      const tk = await tnx.createToolkit({ tools: [tnx.defineTool({ name: "t", inputSchema: schema, needsApproval: true, run: () => { ran++; return "ran"; } })] });
      const answers = [(req) => ({ id: req.id + "x", ok: true }), () => ({ ok: true }), () => null, () => "yes", () => true,
        (req) => ({ id: req.id, ok: "true" }), (req) => ({ id: req.id, ok: 1 }), (req) => [req.id, true]];
      const seen = [];
      for (const answer of answers) {
        const c = await tnx.createClient({ baseURL: "https://model.test/v1", model: "m", fetch: model("t", { order: 1 }), waitFor: answer });
        const r = await rejects(() => c.run("go", tk)) ?? { status: "rejected-not" };
        seen.push(r instanceof Error ? "rejected" : "resolved");
      }
      return [ran === 0, `ran=${ran} ${seen.join(",")}`];
    },
    async "approved args are the ones shown: edited args in the answer do not change what runs"() {
      const got = [];
      const tk = await tnx.createToolkit({ tools: [tnx.defineTool({ name: "t", inputSchema: schema, needsApproval: true, run: (a) => { got.push(a); return "ran"; } })] });
      let shown;
      const c = await tnx.createClient({ baseURL: "https://model.test/v1", model: "m", fetch: model("t", { order: 1 }),
        waitFor: (req) => { shown = req.data.args; return { id: req.id, ok: true, data: { args: { order: "not a number" } } }; } });
      const r = await c.run("go", tk);
      const ranWith = JSON.stringify(got);
      // Either the edit is ignored (the shown args run) or refused against the schema; never the invalid args.
      const ok = !ranWith.includes("not a number") && (got.length === 0 || JSON.stringify(got[0]) === JSON.stringify(shown));
      return [ok && r.status === "done", `shown=${JSON.stringify(shown)} ran=${ranWith}`];
    },
    async "a fetch that rejects rejects the run with err.result; retries do not loop"() {
      let calls = 0;
      const fetch = async (url, init) => {
        calls++;
        if (calls === 1) return toolTurn("add", { a: 1, b: 2 });
        throw new TypeError("network down");
      };
      const tk = await tnx.createToolkit({ tools: [tnx.defineTool({ name: "add", inputSchema: { type: "object" }, run: ({ a, b }) => String(a + b) })] });
      const c = await tnx.createClient({ baseURL: "https://model.test/v1", model: "m", retries: 1, retryBaseMs: 1, fetch });
      const err = await rejects(() => c.run("go", tk));
      const res = err?.result;
      return [err instanceof Error && /network down/.test(err.message) && res?.toolCalls?.[0]?.output === "3" && calls === 3,
        `calls=${calls} ${err?.message} ${JSON.stringify(res?.toolCalls)}`];
    },
    async "a fetch that throws synchronously or returns junk rejects the run"() {
      const out = [];
      for (const fetch of [() => { throw new Error("sync throw"); }, async () => "not a response", async () => null, async () => ({ status: 200 })]) {
        const c = await tnx.createClient({ baseURL: "https://model.test/v1", model: "m", retries: -1, fetch });
        const tk = await tnx.createToolkit({ tools: [] });
        const err = await rejects(() => withTimeout(c.run("go", tk), 10_000, "junk fetch"));
        out.push(err instanceof Error && !/timed out after/.test(err.message) ? "rejected" : `bad: ${err?.message}`);
      }
      return [out.every((s) => s === "rejected"), out.join(",")];
    },
    async "a generate that throws rejects the run; one that returns junk settles"() {
      const out = [];
      const cases = [[() => { throw new Error("gen boom"); }, true], [async () => { throw new Error("gen reject"); }, true],
        [async () => 42, false], [async () => ({ toolCalls: "nope" }), false], [async () => null, false]];
      for (const [generate, mustReject] of cases) {
        const c = await tnx.createClient({ model: "m", generate });
        const tk = await tnx.createToolkit({ tools: [] });
        let outcome;
        try {
          await withTimeout(c.run("go", tk), 10_000, "generate");
          outcome = "resolved";
        } catch (e) {
          outcome = /timed out after/.test(e?.message) ? "HUNG" : "rejected";
        }
        out.push(mustReject && outcome !== "rejected" ? `bad: ${outcome}` : outcome);
      }
      return [!out.some((s) => s === "HUNG" || s.startsWith("bad")), out.join(",")];
    },
    async "malformed calls into the API reject instead of killing the runtime"() {
      const out = [];
      const tk = await tnx.createToolkit({ tools: [] });
      const c = await tnx.createClient({ baseURL: "https://model.test/v1", model: "m", fetch: model("t", {}) });
      const circular = {}; circular.self = circular;
      const attempts = [
        () => tnx.createToolkit({ tools: [null] }),
        () => tnx.createToolkit({ tools: [{ name: 5, run: 7 }] }),
        () => tnx.createToolkit({ tools: [{ name: "x", inputSchema: circular, run: () => 1 }] }),
        () => tnx.createClient({ baseURL: 12, model: {} }),
        () => tnx.createClient({ baseURL: "https://x", model: "m", maxTurns: "many", timeoutMs: {}, headers: 5 }),
        () => c.run("go", { raw: {} }),
        () => c.run("go", { raw: 42 }),
        () => c.run("go", tk, { history: [circular] }),
        () => c.runWithAnswer(tk, "not json", { id: 1 }, null),
        () => c.runWithAnswer(tk, [{ role: "tool" }], { id: "r" }, { id: "r", ok: true }),
        () => c.translate({ messages: "nope" }),
        () => tk.execute("nope", null),
      ];
      for (const attempt of attempts) {
        try {
          await withTimeout(Promise.resolve().then(attempt), 10_000, "malformed call");
          out.push("resolved");
        } catch (e) {
          out.push(/timed out after/.test(e?.message) ? "HUNG" : "rejected");
        }
      }
      return [!out.includes("HUNG"), out.join(",")];
    },
  };

  const report = [];
  for (const [name, fn] of Object.entries(scenarios)) {
    if (only && !name.includes(only)) continue;
    let pass = false;
    let detail = "";
    try {
      [pass, detail] = await withTimeout(fn(), 20_000, name);
    } catch (e) {
      detail = `threw: ${e?.message ?? e}`;
    }
    let healthyAfter = false;
    try { healthyAfter = await withTimeout(healthy(), 10_000, "healthy run"); } catch (e) { detail += ` | healthy run failed: ${e?.message}`; }
    report.push({ name, pass: !!pass, detail: String(detail).slice(0, 2000), healthyAfter });
  }
  return report;
}
