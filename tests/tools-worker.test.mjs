// tools-worker.test.mjs — the Worker's tool sources on workerd (Miniflare):
// with SKILLS=on, the skill bundled with embed.FS (worker/skills/) is listed
// in the system prompt the model receives, and the skill tool loads it; with
// BUILTINS, the built-in file tools keep their files in a KV namespace or an
// R2 bucket (per workspace, across requests and approvals), and webfetch goes
// through the Workers fetch. The model is a small scripted server on
// 127.0.0.1 started by this file (it also serves webfetch's pages).
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
// the tool result as its answer on the second. A prompt "call <tool> <args
// JSON>" calls that tool instead (the built-in file tools' tests).
function startModel() {
  const srv = createServer((req, res) => {
    if (req.method === "GET" && req.url === "/page") { // webfetch's target
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end("<html><head><title>t</title><script>steal()</script></head><body><h1>Plans</h1><p>Pro costs <b>9</b> &euro;.</p></body></html>");
      return;
    }
    if (req.method === "GET" && req.url === "/missing") {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("no such page");
      return;
    }
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const msg = JSON.parse(body);
      seen.push(msg);
      const last = msg.messages.at(-1);
      const call = last.role === "user" && /^call (\S+) (.*)$/s.exec(last.content);
      const message = last.role === "tool"
        ? { role: "assistant", content: `loaded: ${last.content}` }
        : { role: "assistant", content: null, tool_calls: [{ id: "s1", type: "function",
          function: call ? { name: call[1], arguments: call[2] }
            : { name: "skill", arguments: JSON.stringify({ name: "refund-policy" }) } }] };
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ id: "x", object: "chat.completion", model: "mock-model",
        choices: [{ index: 0, message, finish_reason: last.role === "tool" ? "stop" : "tool_calls" }],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } }));
    });
  });
  return new Promise((r) => srv.listen(0, "127.0.0.1", () => r(srv)));
}

let env;
before(async () => {
  llm = await startModel();
  env = { LLM_BASE_URL: `http://127.0.0.1:${llm.address().port}/v1`, LLM_MODEL: "mock-model",
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

// The built-in file tools keep their files in the bound store: run "write"
// (halts for approval), approve it, and read the file back in a later
// request (the files live in the store, not in the Go instance's memory).
async function writeApproveRead(w, workspace) {
  const run = await w.call("POST", "/v1/run", { body: { workspace,
    prompt: `call write ${JSON.stringify({ path: "notes/plan.md", content: "ship it\nthen rest\n" })}` } });
  assert.equal(run.status, 200, run.text);
  assert.equal(run.json.status, "pending", run.text);
  assert.equal(run.json.pending.data.tool, "write");
  const res = await w.call("POST", "/v1/resume", { body: { state: run.json.state,
    answer: { id: run.json.pending.id, ok: true } } });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.json.text, "loaded: Wrote 18 bytes to notes/plan.md");
  const read = await w.call("POST", "/v1/run", { body: { workspace, prompt: `call read {"path":"notes/plan.md"}` } });
  assert.equal(read.json.text, "loaded: ship it\nthen rest\n", read.text);
}

for (const kind of ["kv", "r2"]) {
  const binding = kind === "kv" ? "FILES_KV" : "FILES_R2";
  test(`built-in file tools over ${binding}: approved writes persist across requests, per workspace`, { timeout: 90_000 }, async () => {
    const w = await startWorker({ ...env, BUILTINS: "on" }, kind === "kv" ? { kv: [binding] } : { r2: [binding] });
    try {
      const tools = await w.call("GET", "/v1/tools");
      assert.deepEqual(tools.json.tools.map((t) => t.name),
        ["add", "refund", "question", "webfetch", "todowrite", "read", "write", "edit", "glob", "grep", "apply_patch"]);
      assert.deepEqual(tools.json.tools.filter((t) => t.needsApproval).map((t) => t.name), ["refund", "write", "edit", "apply_patch"]);

      await writeApproveRead(w, "team-a");
      const store = await w[kind](binding);
      const stored = kind === "kv"
        ? await store.get("files/team-a/notes/plan.md")
        : await (await store.get("files/team-a/notes/plan.md")).text();
      assert.equal(stored, "ship it\nthen rest\n");

      // A file put straight into the store (bytes, not text) is read and
      // searched; grep patterns are JavaScript regular expressions.
      await store.put("files/team-a/src/app.js", new TextEncoder().encode("const a = 1;\nfunction main() {}\n"));
      const glob = await w.call("POST", "/v1/run", { body: { workspace: "team-a", prompt: `call glob {"pattern":"**/*"}` } });
      assert.equal(glob.json.text, "loaded: notes/plan.md\nsrc/app.js");
      const grep = await w.call("POST", "/v1/run", { body: { workspace: "team-a", prompt: `call grep ${JSON.stringify({ pattern: "^func\\w+ \\w+\\(\\)" })}` } });
      assert.equal(grep.json.text, "loaded: src/app.js:2:function main() {}");

      // Another workspace (and the default one) sees none of it.
      const other = await w.call("POST", "/v1/run", { body: { prompt: `call glob {"pattern":"**/*"}` } });
      assert.equal(other.json.text, "loaded: No files match **/*");

      // A patch whose second hunk does not apply changes nothing.
      const patch = ["*** Begin Patch", "*** Add File: notes/new.md", "+fresh", "*** Update File: notes/plan.md",
        "@@", "-no such line", "+x", "*** End Patch"].join("\n");
      const bad = await w.call("POST", "/v1/run", { body: { workspace: "team-a", prompt: `call apply_patch ${JSON.stringify({ patchText: patch })}` } });
      assert.equal(bad.json.status, "pending", bad.text);
      const refused = await w.call("POST", "/v1/resume", { body: { state: bad.json.state, answer: { id: bad.json.pending.id, ok: true } } });
      assert.match(refused.json.text, /^loaded: apply_patch: notes\/plan\.md: hunk 1 does not apply/, refused.text);
      assert.equal(refused.json.toolCalls[0].isError, true);
      const after = await w.call("POST", "/v1/run", { body: { workspace: "team-a", prompt: `call glob {"pattern":"**/*.md"}` } });
      assert.equal(after.json.text, "loaded: notes/plan.md", "the failed patch added a file");

      // A listing longer than one page (1000 keys) is read to its end.
      // Put in batches of 100: 1,005 puts at once through miniflare timed out on a loaded machine.
      for (let start = 0; start < 1005; start += 100) {
        await Promise.all(Array.from({ length: Math.min(100, 1005 - start) },
          (_, i) => store.put(`files/bulk/f/${String(start + i).padStart(4, "0")}.txt`, "x")));
      }
      const many = await w.call("POST", "/v1/run", { body: { workspace: "bulk", prompt: `call glob {"pattern":"f/*.txt","limit":-1}` } });
      const lines = many.json.text.replace(/^loaded: /, "").split("\n");
      assert.equal(lines.length, 1005, many.text.slice(0, 300));
      assert.equal(lines.at(-1), "f/1004.txt");
    } finally {
      await w.dispose();
    }
  });
}

test("BUILTINS naming a file tool without a files binding is a named configuration error", { timeout: 60_000 }, async () => {
  const w = await startWorker({ ...env, BUILTINS: "read,question" });
  try {
    const res = await w.call("POST", "/v1/run", { body: { prompt: "hi" } });
    assert.equal(res.status, 500, res.text);
    assert.equal(res.json.error.code, "config");
    assert.match(res.json.error.message, /BUILTINS names read, which needs an R2 bucket bound as FILES_R2 or a KV namespace bound as FILES_KV/);
  } finally {
    await w.dispose();
  }
});

test("webfetch on workerd fetches through the Workers fetch and returns markdown", { timeout: 60_000 }, async () => {
  const w = await startWorker({ ...env, BUILTINS: "webfetch" });
  try {
    const base = `http://127.0.0.1:${llm.address().port}`;
    const page = await w.call("POST", "/v1/run", { body: { prompt: `call webfetch {"url":"${base}/page"}` } });
    assert.equal(page.status, 200, page.text);
    assert.equal(page.json.text, "loaded: # Plans\n\nPro costs **9** €.", page.text);
    const missing = await w.call("POST", "/v1/run", { body: { prompt: `call webfetch {"url":"${base}/missing"}` } });
    assert.equal(missing.json.toolCalls[0].isError, true, missing.text);
    assert.match(missing.json.toolCalls[0].output, /HTTP 404/);
  } finally {
    await w.dispose();
  }
});
