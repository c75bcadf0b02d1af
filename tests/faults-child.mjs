// faults-child.mjs — one upstream fault through the browser build, in a child
// process of tests/faults.test.mjs. These faults currently leave an unhandled
// Promise rejection behind (see the TODO test there), which node:test would
// pin on whatever test runs next; a process of its own records it instead.
//
//   node faults-child.mjs <web dir> cut|stall-stream|stall-run
//
// Prints one line "CHILDJSON {ms, message, result, events, calls, unhandled}".

import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { startFaultyLLM } from "./mock-faults.mjs";

const unhandled = [];
process.on("unhandledRejection", (reason) => unhandled.push(String(reason?.stack ?? reason).split("\n").slice(0, 2).join(" | ")));

const [web, kind] = process.argv.slice(2);
const { load } = await import(pathToFileURL(join(web, "toolnexus.mjs")).href);
const tnx = await load({ wasm: join(web, "toolnexus.wasm") });
let calls = 0;
const tk = await tnx.createToolkit({ tools: [tnx.defineTool({
  name: "add", inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
  run: ({ a, b }) => { calls++; return String(a + b); },
})] });
const ADD = { toolCalls: [{ name: "add", args: { a: 2, b: 3 } }] };
const fault = { cut: [{ cut: 40 }, { cut: 40 }], "stall-stream": [{ stall: 2 }], "stall-run": [{ stall: 0 }] }[kind];
const mock = await startFaultyLLM({ script: [ADD, ...fault] });
const client = await tnx.createClient({ baseURL: `${mock.url}/v1`, model: "m", apiKey: "k", retryBaseMs: 5,
  ...(kind === "cut" ? { retries: 1 } : { retries: -1, timeoutMs: 1500 }) });
const events = [];
const t0 = Date.now();
let err = null;
try {
  if (kind === "stall-stream") for await (const e of client.stream("add", tk)) events.push(e.type);
  else await client.run("add", tk);
} catch (e) { err = e; }
const ms = Date.now() - t0;
await new Promise((ok) => setTimeout(ok, 500)); // let late rejections surface
await mock.close();
console.log("CHILDJSON " + JSON.stringify({ ms, message: err?.message ?? null, result: err?.result ?? null, events, calls, unhandled }));
process.exit(0);
