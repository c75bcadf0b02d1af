// size.mjs — what users download: the wasm builds raw / gzip -9 / brotli, the
// bytes a page fetches for the demo and for the chat element (each file
// gzipped on its own, as a server sends them), and the peers' minified
// browser bundles for the same loop, built here with esbuild.
//
//   node bench/size.mjs        (after ./build.sh build and ./build.sh worker)

import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { build } from "esbuild";

const here = fileURLToPath(new URL(".", import.meta.url));
const dist = process.env.TOOLNEXUS_DIST ?? join(here, "..", "dist");
const web = join(dist, "web");

// gzip9 is the size `gzip -9` makes (node's zlib level 9 when there is no gzip).
function gzip9(bytes) {
  try {
    return execFileSync("gzip", ["-9", "-c", "-n"], { input: bytes, maxBuffer: 1 << 26 }).length;
  } catch {
    return gzipSync(bytes, { level: 9 }).length;
  }
}

export const sizes = (bytes) => ({
  raw: bytes.length,
  gzip: gzip9(bytes),
  brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }).length,
});

// moduleGraph lists the files reachable from entries through relative
// static and dynamic imports (skipping files matched by skip).
function moduleGraph(entries, skip = /^$/) {
  const seen = new Set();
  const visit = (f) => {
    if (seen.has(f) || skip.test(f) || !existsSync(join(web, f))) return;
    seen.add(f);
    const src = readFileSync(join(web, f), "utf8");
    for (const m of src.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*)["']\.\/([\w.-]+\.mjs)["']/g)) visit(m[1]);
  };
  entries.forEach(visit);
  return [...seen];
}

// wasmOf names the wasm a page's modules load: the ones they name
// (toolnexus.mjs's own default aside), else toolnexus.wasm.
function wasmOf(modules) {
  const named = new Set();
  for (const f of modules.filter((m) => m !== "toolnexus.mjs")) {
    // Only names that are files: a comment may show the pattern ("./name.wasm").
    for (const m of readFileSync(join(web, f), "utf8").matchAll(/["']\.\/([\w.-]+\.wasm)["']/g)) if (existsSync(join(web, m[1]))) named.add(m[1]);
  }
  return named.size ? [...named] : ["toolnexus.wasm"];
}

function pageBytes(files) {
  let raw = 0, gzip = 0;
  for (const f of files) {
    const b = readFileSync(join(web, f));
    raw += b.length;
    gzip += gzip9(b);
  }
  return { files, raw, gzip };
}

// Each peer's browser bundle holds what the loop in contenders.mjs uses.
const PEER_ENTRIES = {
  "ai-sdk": `export { generateText, stepCountIs, tool } from "ai"; export { createOpenAICompatible } from "@ai-sdk/openai-compatible"; export { z } from "zod";`,
  "ai-sdk 6": `export { generateText, stepCountIs, tool } from "ai6"; export { createOpenAICompatible } from "@ai-sdk/openai-compatible-2"; export { z } from "zod";`,
  agents: `export { Agent, run, tool, user, assistant, setTracingDisabled, OpenAIChatCompletionsModel } from "@openai/agents"; export { default as OpenAI } from "openai"; export { z } from "zod";`,
  "ours (toolnexus.mjs only)": `export { load, defineTool } from ${JSON.stringify(join(web, "toolnexus.mjs"))};`,
};

async function bundle(contents) {
  const out = await build({
    stdin: { contents, resolveDir: here, sourcefile: "entry.mjs", loader: "js" },
    bundle: true, minify: true, format: "esm", platform: "browser", target: "es2022",
    write: false, logLevel: "silent", external: ["./wasm_exec.js", "node:*"], // toolnexus.mjs imports node:fs only under Node
  });
  return Buffer.from(out.outputFiles[0].contents);
}

export async function measureSize() {
  const wasm = { browser: sizes(readFileSync(join(web, "toolnexus.wasm"))), worker: sizes(readFileSync(join(dist, "worker", "build", "app.wasm"))) };
  if (existsSync(join(web, "toolnexus-tools.wasm"))) wasm.tools = sizes(readFileSync(join(web, "toolnexus-tools.wasm")));
  // The syumai/workers hello-world (./build.sh bench builds it beside ours): the Worker size yardstick.
  const hello = join(dist, "syumai-hello", "build", "app.wasm");
  if (existsSync(hello)) wasm.hello = sizes(readFileSync(hello));
  const demoModules = moduleGraph(["demo.mjs"]);
  const demo = pageBytes(["index.html", "demo.css", ...demoModules, "wasm_exec.js", ...wasmOf(demoModules)]);
  const chatEntry = existsSync(join(web, "toolnexus-chat.mjs")) ? "toolnexus-chat.mjs" : null;
  // Without the element yet, the set it needs: the engine and what it loads (the demo model excluded).
  const chatModules = moduleGraph(chatEntry ? [chatEntry] : ["chat-engine.mjs"], /^demo-/);
  const chat = pageBytes([...chatModules, "wasm_exec.js", ...wasmOf(chatModules)]);
  chat.note = chatEntry ? "toolnexus-chat.mjs and its imports (demo model excluded)" : "no toolnexus-chat.mjs yet: chat-engine.mjs and its imports (demo model excluded)";
  const peers = {};
  for (const [name, entry] of Object.entries(PEER_ENTRIES)) {
    const b = await bundle(entry);
    peers[name] = { raw: b.length, gzip: gzip9(b) };
  }
  // Ours needs the wasm and Go's glue next to its module.
  const glue = readFileSync(join(web, "wasm_exec.js"));
  const o = peers["ours (toolnexus.mjs only)"];
  peers["ours: toolnexus.mjs bundle + wasm_exec.js + toolnexus.wasm"] = {
    raw: o.raw + glue.length + wasm.browser.raw, gzip: o.gzip + gzip9(glue) + wasm.browser.gzip,
  };
  return { wasm, demo, chat, peers };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(JSON.stringify(await measureSize(), null, 2));
}
