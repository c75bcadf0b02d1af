// worker-dev.test.mjs — `./build.sh worker-dev`'s model is the browser demo's
// offline model (web/demo-model.mjs, served by scripts/demo-model-server.mjs):
// the same prompts give the same answers on the Worker (workerd, Miniflare)
// as in the page (the same module and demo tools, run here by the JS API in
// Node), and its greeting offers only what the Worker can do. worker-dev on
// a taken port says so in one line, and keeps an AGENTS edited into
// dist/worker/wrangler.jsonc across its rebuild.
//
//   ./build.sh build && ./build.sh worker && cd tests && timeout 300 node --test worker-dev.test.mjs

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFile, spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { chmod, copyFile, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { startWorker } from "./worker-harness.mjs";
import { startDemoModel } from "../scripts/demo-model-server.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));
const ROOT = resolve(here, "..");
const DIST = resolve(process.env.TOOLNEXUS_DIST ?? join(ROOT, "dist"));
const WEB = join(DIST, "web");
const T = { timeout: 120_000 };

let model;
let worker;
before(async () => {
  model = await startDemoModel({ gapMs: 0 });
  worker = await startWorker({
    LLM_BASE_URL: model.url, LLM_MODEL: model.model, LLM_API_KEY: "demo-key",
    STATE_SECRET: "worker-dev-state-secret-0123456789ab",
  });
});
after(async () => {
  await worker?.dispose().catch(() => {});
  await model?.close();
});

// onWorker runs a prompt on the Worker, approving every request.
async function onWorker(prompt) {
  let res = await worker.call("POST", "/v1/run", { body: { prompt } });
  const asked = [];
  while (res.json?.status === "pending") {
    asked.push(res.json.pending.data.args);
    res = await worker.call("POST", "/v1/resume", { body: { state: res.json.state, answer: { id: res.json.pending.id, ok: true } } });
  }
  assert.equal(res.status, 200, res.text);
  return { text: res.json.text, asked };
}

// inPage runs the same prompt with the page's model and demo tools.
async function inPage(prompt) {
  const { load } = await import(pathToFileURL(join(WEB, "toolnexus.mjs")).href);
  const { demoModel } = await import(pathToFileURL(join(WEB, "demo-model.mjs")).href);
  const { demoTools } = await import(pathToFileURL(join(WEB, "demo-tools.mjs")).href);
  const tnx = await load({ wasm: join(WEB, "toolnexus.wasm") });
  const asked = [];
  const tk = await tnx.createToolkit({ tools: demoTools() });
  const client = await tnx.createClient({ ...demoModel(), waitFor: (r) => { asked.push(r.data.args); return { id: r.id, ok: true }; } });
  const res = await client.run(prompt, tk);
  await tk.close();
  return { text: res.text, asked };
}

for (const prompt of ["refund order 7", "what is 2+3", "add 10 and 32"]) {
  test(`"${prompt}": the same answer on the Worker as in the page`, T, async () => {
    const [w, p] = await Promise.all([onWorker(prompt), inPage(prompt)]);
    assert.equal(w.text, p.text);
    assert.equal(w.asked.length, p.asked.length, "the same approvals");
    if (prompt.startsWith("refund")) {
      assert.equal(w.text, "Done: refunded order 7.");
      // Each side's refund declares its own type for order (integer / string).
      assert.deepEqual([w.asked[0], p.asked[0]], [{ order: 7 }, { order: "7" }]);
    }
  });
}

// Issue 26: the greeting offered prompts the Worker cannot serve (divide,
// time, write a note; review without "agent"). It offers what the place can
// do, and each prompt it offers works there.
test("the greeting offers on the Worker only what the Worker can do, and each offered prompt works", T, async () => {
  const hello = await onWorker("hello");
  const offered = [...hello.text.matchAll(/"([^"]+)"/g)].map((m) => m[1]);
  assert.deepEqual(offered, ["refund order 42", "add 2 and 3", "what is 2+3"], hello.text);
  for (const prompt of offered) {
    const { text } = await onWorker(prompt);
    assert.doesNotMatch(text, /not available|I am the offline demo model/, `${prompt}: ${text}`);
  }
  // In the page the greeting offers what the page has (its demo tools).
  const page = await inPage("hello");
  assert.deepEqual([...page.text.matchAll(/"([^"]+)"/g)].map((m) => m[1]),
    ["refund order 42", "add 2 and 3", "what is 2+3", "divide 1 by 0", "what time is it"], page.text);
  // A review without "agent" says what it needs instead of greeting again.
  const review = await onWorker("review order 42");
  assert.match(review.text, /^Reviewing an order is a job for an agent team.*"agent": "support".*"refund order 42"/, review.text);
});

test("/v1/resume with edited arguments: a bad edit is 400 invalid_args and the token stays good; a good one runs", T, async () => {
  const run = await worker.call("POST", "/v1/run", { body: { prompt: "refund order 7" } });
  assert.equal(run.json.status, "pending");
  assert.equal(run.json.pending.data.schema.properties.order.type, "integer");
  const resume = (args) => worker.call("POST", "/v1/resume", { body: { state: run.json.state, answer: { id: run.json.pending.id, ok: true, data: { args } } } });
  const bad = await resume({ order: "eight" });
  assert.equal(bad.status, 400, bad.text);
  assert.equal(bad.json.error.code, "invalid_args");
  assert.match(bad.json.error.message, /"order" must be integer/);
  const good = await resume({ order: 8 });
  assert.equal(good.status, 200, good.text);
  assert.equal(good.json.text, "Done: refunded order 8.");
  assert.deepEqual(good.json.toolCalls.map((c) => [c.name, c.args, c.edited]), [["refund", { order: 8 }, true]]);
});

test("the Worker streams the demo model's reply", T, async () => {
  const res = await fetch(new URL("/v1/run", worker.url), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ prompt: "hello", stream: true }) });
  const text = await res.text();
  const deltas = [...text.matchAll(/^event: text\ndata: (.*)$/gm)].map((m) => JSON.parse(m[1]).delta);
  assert.ok(deltas.length > 3, text.slice(0, 400));
  assert.match(deltas.join(""), /^I am the offline demo model\./);
});

test("worker-dev on a taken port says so in one line and how to pick another", T, async () => {
  const taken = createServer().listen(0, "127.0.0.1");
  await new Promise((ok) => taken.once("listening", ok));
  const port = taken.address().port;
  try {
    const err = await promisify(execFile)("./build.sh", ["worker-dev"], { cwd: ROOT, env: { ...process.env, PORT: String(port) }, timeout: 60_000 })
      .then(() => null, (e) => e);
    assert.ok(err, "worker-dev must fail");
    assert.notEqual(err.code, 0);
    assert.equal(err.stderr, `worker-dev: port ${port} on 127.0.0.1 is already in use; pick another with PORT=${port + 1} ./build.sh worker-dev\n`);
    assert.equal(err.stdout, "", "nothing was built or started");
  } finally {
    taken.close();
  }
});

// Issue 33: worker-dev installed the whole test toolchain (~160 packages) the
// first time, without saying why. It needs wrangler only: wrangler_bin
// (scripts/worker.sh) installs just that, from a lock file derived from the
// tests' (scripts/wrangler-lock.mjs). Here npm is a stub that records its
// calls, in a scratch ROOT without tests/node_modules: nothing is downloaded.
test("worker-dev without the test packages installs wrangler alone, pinned by the tests' lock file, and says so", T, async () => {
  const { wranglerLock } = await import(pathToFileURL(join(ROOT, "scripts", "wrangler-lock.mjs")).href);
  const testsLock = JSON.parse(readFileSync(join(ROOT, "tests", "package-lock.json"), "utf8"));
  const { manifest, lock } = wranglerLock(testsLock);
  assert.equal(manifest.devDependencies.wrangler, JSON.parse(readFileSync(join(ROOT, "tests", "package.json"), "utf8")).devDependencies.wrangler);
  const paths = Object.keys(lock.packages).filter(Boolean);
  for (const p of paths) assert.deepEqual(lock.packages[p], testsLock.packages[p], `${p} differs from the tests' lock`);
  for (const p of ["node_modules/wrangler", "node_modules/miniflare", "node_modules/workerd"]) assert.ok(paths.includes(p), p);
  for (const p of ["node_modules/playwright-core", "node_modules/ai", "node_modules/openai", "node_modules/react"]) assert.ok(!paths.includes(p), p);
  const installed = paths.filter((p) => !lock.packages[p].optional).length;
  assert.ok(installed < 40, `${installed} packages besides the platform binaries`);

  const scratch = await mkdtemp(join(tmpdir(), "tn-wrangler-"));
  try {
    const root = join(scratch, "root");
    const bin = join(scratch, "bin");
    const log = join(scratch, "npm.log");
    await mkdir(join(root, "tests"), { recursive: true });
    await mkdir(join(root, "scripts"), { recursive: true });
    await mkdir(bin);
    await copyFile(join(ROOT, "tests", "package-lock.json"), join(root, "tests", "package-lock.json"));
    await copyFile(join(ROOT, "scripts", "wrangler-lock.mjs"), join(root, "scripts", "wrangler-lock.mjs"));
    // The stub installs a fake wrangler where npm ci would, with npm's stamp.
    await writeFile(join(bin, "npm"), `#!/bin/sh\necho "$PWD $*" >> "${log}"\nmkdir -p node_modules/.bin && : > node_modules/.bin/wrangler && chmod +x node_modules/.bin/wrangler && cp package-lock.json node_modules/.package-lock.json\n`);
    await chmod(join(bin, "npm"), 0o755);
    const run = () => promisify(execFile)("bash", ["-c",
      `set -euo pipefail; ROOT="${root}"; DIST="${root}/dist"; source "${ROOT}/scripts/test.sh"; source "${ROOT}/scripts/worker.sh"; wrangler_bin`],
      { env: { ...process.env, PATH: `${bin}:${process.env.PATH}` }, timeout: 60_000 });
    const first = await run();
    const dir = join(root, "dist", "wrangler");
    assert.equal(first.stdout, `${join(dir, "node_modules", ".bin", "wrangler")}\n`);
    assert.match(first.stderr, /installing wrangler for worker-dev: only it and its dependencies/);
    assert.equal(readFileSync(log, "utf8"), `${dir} ci --no-audit --no-fund --loglevel=error\n`, "npm ci ran once, in the wrangler folder, not in tests/");
    assert.deepEqual(JSON.parse(readFileSync(join(dir, "package-lock.json"), "utf8")), lock);
    const again = await run();
    assert.equal(again.stdout, first.stdout);
    assert.equal(again.stderr, "", "installed once");
    assert.equal(readFileSync(log, "utf8").split("\n").filter(Boolean).length, 1);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
});

// freePort asks the system for a port nobody listens on.
async function freePort() {
  const s = createServer().listen(0, "127.0.0.1");
  await new Promise((ok) => s.once("listening", ok));
  const { port } = s.address();
  await new Promise((ok) => s.close(ok));
  return port;
}

// Issue 26: the README has AGENTS put into dist/worker/wrangler.jsonc; the
// rebuild that ./build.sh worker-dev starts with must keep that edit, and the
// team must then run. Built into a folder of its own (TOOLNEXUS_DIST).
test("README's AGENTS in dist/worker/wrangler.jsonc survives ./build.sh worker-dev, and the team runs", { timeout: 420_000 }, async () => {
  const dist = await mkdtemp(join(tmpdir(), "toolnexus-worker-dev-"));
  const env = { ...process.env, TOOLNEXUS_DIST: dist };
  let dev;
  try {
    await promisify(execFile)("./build.sh", ["worker"], { cwd: ROOT, env, timeout: 300_000 });
    // The README's words: in dist/worker/wrangler.jsonc, under "vars", the block.
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const block = readme.match(/<!-- readme-test: worker-agents -->\n```jsonc\n([\s\S]*?)\n```/)[1];
    const config = join(dist, "worker", "wrangler.jsonc");
    const text = readFileSync(config, "utf8");
    assert.match(text, /"vars": \{\n/);
    writeFileSync(config, text.replace(/"vars": \{\n/, `"vars": {\n${block},\n`));
    const port = await freePort();
    dev = spawn("./build.sh", ["worker-dev"], { cwd: ROOT, env: { ...env, PORT: String(port) }, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    dev.stdout.on("data", (d) => { out += d; });
    dev.stderr.on("data", (d) => { out += d; });
    let res;
    for (let i = 0; i < 600 && !res; i++) {
      if (dev.exitCode !== null) assert.fail(`worker-dev exited: ${out}`);
      res = await fetch(`http://127.0.0.1:${port}/v1/run`, { method: "POST", headers: { "content-type": "application/json" },
        body: JSON.stringify({ prompt: "review order 42", agent: "support" }) }).catch(() => null);
      if (!res) await sleep(500);
    }
    assert.ok(res, `worker-dev did not answer: ${out}`);
    const body = await res.text();
    assert.equal(res.status, 200, body);
    const json = JSON.parse(body);
    assert.equal(json.status, "pending", body);
    assert.deepEqual(json.pending.data.path, ["support", "billing"]);
    assert.match(out, /kept your .*wrangler\.jsonc/);
  } finally {
    if (dev?.pid) try { process.kill(-dev.pid, "SIGTERM"); } catch { /* gone */ }
    await sleep(500);
    await rm(dist, { recursive: true, force: true });
  }
});
