// tools-worker.test.mjs — the Worker's bundled skill on workerd (Miniflare):
// with SKILLS=on, the skill bundled with embed.FS (worker/skills/) is listed
// in the system prompt the model receives, and the skill tool loads it.
// The model is a small scripted server on 127.0.0.1 started by this file.
//
//   ./build.sh worker && cd tests && timeout 300 node --test --test-force-exit tools-worker.test.mjs

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { startWorker } from "./worker-harness.mjs";

let llm;
const seen = []; // request bodies the model received
let worker;
let plain;

// The model calls skill {name: "refund-policy"} on the first turn and repeats
// the tool result as its answer on the second.
function startModel() {
  const srv = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const msg = JSON.parse(body);
      seen.push(msg);
      const last = msg.messages.at(-1);
      const message = last.role === "tool"
        ? { role: "assistant", content: `loaded: ${last.content}` }
        : { role: "assistant", content: null, tool_calls: [{ id: "s1", type: "function",
          function: { name: "skill", arguments: JSON.stringify({ name: "refund-policy" }) } }] };
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ id: "x", object: "chat.completion", model: "mock-model",
        choices: [{ index: 0, message, finish_reason: last.role === "tool" ? "stop" : "tool_calls" }],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } }));
    });
  });
  return new Promise((r) => srv.listen(0, "127.0.0.1", () => r(srv)));
}

before(async () => {
  llm = await startModel();
  const env = { LLM_BASE_URL: `http://127.0.0.1:${llm.address().port}/v1`, LLM_MODEL: "mock-model",
    LLM_API_KEY: "sk-tools-test", STATE_SECRET: "tools-test-state-secret-0123456789abcdef" };
  worker = await startWorker({ ...env, SKILLS: "on", SYSTEM_PROMPT: "You help customers." });
  plain = await startWorker(env);
});

after(async () => {
  await worker?.dispose().catch(() => {});
  await plain?.dispose().catch(() => {});
  await new Promise((r) => (llm ? llm.close(r) : r()));
});

test("a bundled skill is listed in the system prompt and loaded by the skill tool", { timeout: 60_000 }, async () => {
  const tools = await worker.call("GET", "/v1/tools");
  assert.equal(tools.status, 200, tools.text);
  assert.deepEqual(tools.json.tools.map((t) => t.name), ["add", "refund", "skill"]);

  const from = seen.length;
  const res = await worker.call("POST", "/v1/run", { body: { prompt: "can I get my money back for order 7?" } });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.json.status, "done", res.text);
  assert.match(res.json.text, /^loaded: <skill name="refund-policy" folder="refund-policy">\n# Refund policy/);
  assert.match(res.json.text, /- reply-template\.md/);
  const system = seen[from].messages[0];
  assert.equal(system.role, "system");
  assert.match(system.content, /^You help customers\.\n\n## Skills\n/);
  assert.match(system.content, /- refund-policy: How to decide and word a refund/);
});

test("without SKILLS=on the Worker has no skill tool and no skills section", { timeout: 60_000 }, async () => {
  const tools = await plain.call("GET", "/v1/tools");
  assert.deepEqual(tools.json.tools.map((t) => t.name), ["add", "refund"]);
});
