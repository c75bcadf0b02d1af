// a2a.test.mjs — our A2A tools against a remote agent built with the official
// A2A JavaScript SDK (tests/a2a-server.mjs: @a2a-js/sdk 1.3.0, A2A 1.0,
// JSON-RPC over Express) on 127.0.0.1:
//
//   1. Go natively: `go test -run TestAgainstTheA2ASDK ./core/a2a` with the
//      agent's card in TOOLNEXUS_A2A_CARD.
//   2. The default browser build refuses a2aAgents, naming the tools build.
//   3. The tools build in headless Chromium (createToolkit({a2aAgents}), a
//      model in the page, the approval dialog as waitFor): a completed task's
//      artifact reaches the model; a failed task is an error result; the
//      agent's question (input-required) opens our dialog, the answer
//      continues the remote task to completion; a decline cancels it.
//   4. The Worker on workerd (A2A_AGENTS): the same, the question halting the
//      run ("pending") until /v1/resume answers or declines.
//
//   ./build.sh test runs it (test_a2a in scripts/a2a.sh); alone, after ./build.sh and
//   ./build.sh worker: cd tests && timeout 600 node --test --test-force-exit a2a.test.mjs

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { chromium } from "playwright-core";
import { startA2AServer } from "./a2a-server.mjs";
import { startMockLLM } from "./mock-llm.mjs";
import { serve } from "../scripts/serve.mjs";
import { startWorker, workerDir } from "./worker-harness.mjs";
import { LAUNCH, withPage } from "./chromium.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));
const ROOT = join(here, "..");
const WEB = process.env.TOOLNEXUS_WEB ?? join(process.env.TOOLNEXUS_DIST ?? join(ROOT, "dist"), "web");
const DEAD = "http://127.0.0.1:9/.well-known/agent-card.json"; // the discard port: nothing listens

let agent; // the SDK's server

before(async () => { agent = await startA2AServer(); });
after(async () => { await agent?.close(); });

const agents = () => ({
  desk: { card: agent.cardURL, pollEvery: 50, timeout: 20_000 },
  dead: { card: DEAD, timeout: 2_000 },
});

test("Go natively: TestAgainstTheA2ASDK against the SDK's server", { timeout: 300_000 }, async () => {
  const out = await new Promise((resolve, reject) => {
    const p = spawn("go", ["test", "-count=1", "-run", "^TestAgainstTheA2ASDK$", "-v", "./core/a2a"], {
      cwd: ROOT, env: { ...process.env, TOOLNEXUS_A2A_CARD: agent.cardURL }, stdio: ["ignore", "pipe", "pipe"],
    });
    let text = "";
    p.stdout.on("data", (c) => { text += c; });
    p.stderr.on("data", (c) => { text += c; });
    const timer = setTimeout(() => p.kill("SIGKILL"), 280_000);
    p.on("error", reject);
    p.on("close", (code) => { clearTimeout(timer); resolve({ code, text }); });
  });
  assert.equal(out.code, 0, out.text);
  assert.match(out.text, /--- PASS: TestAgainstTheA2ASDK/);
  assert.doesNotMatch(out.text, /SKIP/);
});

test("Node: the default build refuses a2aAgents and names the tools build", { timeout: 60_000 }, async () => {
  assert.ok(existsSync(join(WEB, "toolnexus.wasm")), `no build in ${WEB}: run ./build.sh first`);
  const mod = await import(pathToFileURL(join(WEB, "toolnexus.mjs")).href);
  const tnx = await mod.load({ wasm: join(WEB, "toolnexus.wasm") });
  const sent = agent.stats.sent;
  await assert.rejects(tnx.createToolkit({ a2aAgents: agents() }), /toolnexus-tools\.wasm/);
  assert.equal(agent.stats.sent, sent, "nothing reached the agent");
});

// The model of the page and of the Worker's mock: a prompt names what to ask
// the desk, and a tool result comes back as "agent said: …".
const ASK = {
  status: ["billing_desk_status", "where is order 7"],
  break: ["billing_desk_status", "break the ledger"],
  "refund 42": ["billing_desk_refund", "refund order 42"],
  "refund 43": ["billing_desk_refund", "refund order 43"],
};

test("chromium: the tools build calls the SDK's agent; its question is our dialog", { timeout: 120_000 }, async () => {
  const site = await serve({ root: WEB, port: 0 });
  const browser = await chromium.launch(LAUNCH);
  try {
    await withPage(browser, async (page, problems) => {
      await page.goto(site.url);
      const status = await page.evaluate(async ({ agents, ask }) => {
        const mod = await import("/toolnexus.mjs");
        const tnx = await mod.load({ wasm: "/toolnexus-tools.wasm" }); // the A2A client is in the tools build
        window.tk = await tnx.createToolkit({ a2aAgents: agents });
        window.client = await tnx.createClient({
          model: "local",
          waitFor: tnx.approvalDialog(),
          generate: async (req) => {
            const last = req.messages.at(-1);
            if (last.role === "tool") return { text: `agent said: ${last.content}` };
            const [name, task] = ask[last.content];
            return { toolCalls: [{ id: "c1", name, arguments: { task } }] };
          },
        });
        window.run = (prompt) => window.client.run(prompt, window.tk);
        return window.tk.a2aStatus();
      }, { agents: { desk: agents().desk }, ask: ASK }); // (a dead agent would log a console error)
      assert.deepEqual(status, { desk: { status: "connected", tools: 2, card: "billing desk" } });

      // A completed task: its artifact reaches the model.
      const done = await page.evaluate(() => window.run("status"));
      assert.equal(done.status, "done");
      assert.equal(done.text, "agent said: order status: shipped");

      // A failed task: an error result the model reads.
      const failed = await page.evaluate(() => window.run("break"));
      assert.equal(failed.toolCalls[0].isError, true);
      assert.match(failed.text, /^agent said: A2A task \S+ failed: the ledger is offline$/);

      // The agent asks (input-required): our dialog shows its words; the
      // reply continues the remote task, which completes.
      await page.evaluate(() => { window.pending = window.run("refund 42"); });
      const dialog = page.getByRole("dialog", { name: "The agent needs input" });
      await dialog.waitFor();
      assert.match(await dialog.textContent(), /The remote agent "billing desk" asks: Refund order 42 for \$30\? Reply to confirm\./);
      await dialog.getByLabel("Reply").fill("yes, go ahead");
      await dialog.getByRole("button", { name: "Submit" }).click();
      const answered = await page.evaluate(() => window.pending);
      assert.equal(answered.status, "done");
      assert.equal(answered.text, "agent said: refunded order 42 (reply: yes, go ahead)");
      assert.equal(agent.stats.replies.at(-1), "yes, go ahead");

      // Declined: the remote task is cancelled and the model told why.
      const cancelled = agent.stats.cancelled.length;
      await page.evaluate(() => { window.pending = window.run("refund 43"); });
      await dialog.waitFor();
      await dialog.getByLabel("Reason").fill("wrong order");
      await dialog.getByRole("button", { name: "Decline" }).click();
      const declined = await page.evaluate(() => window.pending);
      assert.equal(declined.status, "done");
      assert.match(declined.text, /^agent said: declined: wrong order — so the A2A task \S+ of billing desk was cancelled$/);
      assert.equal(declined.toolCalls[0].isError, true);
      assert.equal(agent.stats.cancelled.length, cancelled + 1);
      await page.evaluate(() => window.tk.close());
      assert.deepEqual(problems, []);
    });
  } finally {
    await browser.close();
    await site.close();
  }
});

test("workerd: A2A_AGENTS — an answer resumes the remote task, a decline cancels it", { timeout: 120_000 }, async () => {
  assert.ok(existsSync(join(workerDir, "build", "app.wasm")), `no Worker build in ${workerDir}: run ./build.sh worker`);
  const decide = (req) => {
    const last = req.body.messages.at(-1);
    if (last.role === "tool") return { text: `agent said: ${last.content}` };
    const [name, task] = ASK[last.content];
    return { toolCalls: [{ name, args: { task } }] };
  };
  const llm = await startMockLLM({ script: Array.from({ length: 20 }, () => decide) });
  const w = await startWorker({
    LLM_BASE_URL: `${llm.url}/v1`, LLM_MODEL: "mock-model", LLM_API_KEY: "not-a-real-key",
    STATE_SECRET: "a2a-worker-state-secret-0123456789abcdef",
    A2A_AGENTS: JSON.stringify(agents()),
  });
  try {
    const tools = await w.call("GET", "/v1/tools");
    assert.equal(tools.status, 200, tools.text);
    assert.deepEqual(tools.json.tools.filter((t) => t.source === "a2a").map((t) => t.name), ["billing_desk_refund", "billing_desk_status"]);
    assert.match(w.output.join(""), /a2a agent dead failed/);

    const done = await w.call("POST", "/v1/run", { body: { prompt: "status" } });
    assert.equal(done.status, 200, done.text);
    assert.equal(done.json.text, "agent said: order status: shipped");

    const failed = await w.call("POST", "/v1/run", { body: { prompt: "break" } });
    assert.equal(failed.json.toolCalls[0].isError, true, failed.text);
    assert.match(failed.json.text, /failed: the ledger is offline$/);

    const halted = await w.call("POST", "/v1/run", { body: { prompt: "refund 42" } });
    assert.equal(halted.json.status, "pending", halted.text);
    assert.equal(halted.json.pending.kind, "input");
    assert.match(halted.json.pending.prompt, /Refund order 42 for \$30\?/);
    const resumed = await w.call("POST", "/v1/resume", { body: { state: halted.json.state,
      answer: { id: halted.json.pending.id, ok: true, data: { reply: "yes" } } } });
    assert.equal(resumed.status, 200, resumed.text);
    assert.equal(resumed.json.text, "agent said: refunded order 42 (reply: yes)");

    const cancelled = agent.stats.cancelled.length;
    const asked = await w.call("POST", "/v1/run", { body: { prompt: "refund 43" } });
    assert.equal(asked.json.status, "pending", asked.text);
    const declined = await w.call("POST", "/v1/resume", { body: { state: asked.json.state,
      answer: { id: asked.json.pending.id, ok: false, reason: "wrong order" } } });
    assert.equal(declined.status, 200, declined.text);
    assert.match(declined.json.text, /^agent said: declined: wrong order — so the A2A task \S+ of billing desk was cancelled$/);
    assert.equal(agent.stats.cancelled.length, cancelled + 1);
  } finally {
    await w.dispose();
    await llm.close();
  }
});
