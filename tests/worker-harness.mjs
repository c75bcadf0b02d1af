// worker-harness.mjs — start the built Worker (dist/worker) on workerd through
// Miniflare's Node API, for the Worker tests and the latency measurement.
//
//   const w = await startWorker({ LLM_BASE_URL: …, … }, { kv: true });
//   try { const r = await w.call("POST", "/v1/run", { body: { prompt: "hi" } }); }
//   finally { await w.dispose(); }
//
// w.call returns {status, headers, text, json}; w.output holds what the Worker
// wrote to stdout/stderr (Go's log lines).

import { readFileSync, existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Miniflare } from "miniflare";

const here = dirname(fileURLToPath(import.meta.url));
export const dist = resolve(process.env.TOOLNEXUS_DIST ?? join(here, "..", "dist"));
export const workerDir = join(dist, "worker");
export const buildDir = join(workerDir, "build");

// compatibilityDate is the one ./build.sh worker wrote into wrangler.jsonc, so the
// tests run the Worker exactly as `wrangler deploy` would configure it.
export function compatibilityDate() {
  const config = join(workerDir, "wrangler.jsonc");
  if (!existsSync(join(buildDir, "app.wasm")) || !existsSync(config)) {
    throw new Error(`no Worker build in ${workerDir}: run ./build.sh worker first`);
  }
  const m = readFileSync(config, "utf8").match(/"compatibility_date"\s*:\s*"(\d{4}-\d{2}-\d{2})"/);
  if (!m) throw new Error(`no compatibility_date in ${config}`);
  return m[1];
}

// startWorker starts one Worker with env as its bindings (vars and secrets).
// kv: true binds an in-memory KV namespace as STATE_KV; an array binds the
// namespaces it names. r2 binds the R2 buckets it names. approvals (default
// true, as the generated wrangler.jsonc has it) binds the ApprovalLedger
// Durable Object, SQLite-backed, as APPROVALS. w.kv(name), w.r2(name) and
// w.ledger(id) (the ledger object for one state token id, an RPC stub)
// reach a binding from the test.
export async function startWorker(env, { kv = false, r2 = [], approvals = true } = {}) {
  const kvNamespaces = Array.isArray(kv) ? kv : kv ? ["STATE_KV"] : [];
  const output = [];
  const mf = new Miniflare({
    modules: true,
    scriptPath: join(buildDir, "main.mjs"),
    modulesRoot: buildDir,
    modulesRules: [{ type: "CompiledWasm", include: ["**/*.wasm"] }],
    compatibilityDate: compatibilityDate(),
    bindings: env,
    kvNamespaces,
    r2Buckets: r2,
    durableObjects: approvals ? { APPROVALS: { className: "ApprovalLedger", useSQLite: true } } : {},
    cf: false,
    host: "127.0.0.1",
    port: 0,
    handleRuntimeStdio(stdout, stderr) {
      stdout.on("data", (c) => output.push(String(c)));
      stderr.on("data", (c) => output.push(String(c)));
    },
  });
  let url;
  try {
    url = await mf.ready;
  } catch (err) {
    await mf.dispose().catch(() => {});
    throw err;
  }
  return {
    url,
    output,
    dispose: () => mf.dispose(),
    kv: (name) => mf.getKVNamespace(name),
    r2: (name) => mf.getR2Bucket(name),
    async ledger(id) {
      const ns = await mf.getDurableObjectNamespace("APPROVALS");
      return ns.get(ns.idFromName(id));
    },
    async call(method, path, { body, headers = {} } = {}) {
      const init = { method, headers: { ...headers } };
      if (body !== undefined) {
        init.body = typeof body === "string" ? body : JSON.stringify(body);
        init.headers["content-type"] ??= "application/json";
      }
      const res = await fetch(new URL(path, url), init);
      const text = await res.text();
      let json;
      try { json = text ? JSON.parse(text) : undefined; } catch { json = undefined; }
      return { status: res.status, headers: res.headers, text, json };
    },
  };
}
