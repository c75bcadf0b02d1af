// tools-lean.test.mjs — the default wasm (toolnexus.wasm) leaves out skills,
// the built-in tools and the MCP client: createToolkit adds none, and asking
// for them is an error that names the tools build.
//
//   ./build.sh && cd tests && timeout 120 node --test tools-lean.test.mjs

import { before, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = fileURLToPath(new URL(".", import.meta.url));
const WEB = process.env.TOOLNEXUS_WEB ?? join(process.env.TOOLNEXUS_DIST ?? join(here, "..", "dist"), "web");

let tnx;
before(async () => {
  const mod = await import(pathToFileURL(join(WEB, "toolnexus.mjs")).href);
  tnx = await mod.load({ wasm: join(WEB, "toolnexus.wasm") });
});

test("the default build has no built-ins and refuses to add them", { timeout: 30_000 }, async () => {
  const tk = await tnx.createToolkit({ tools: [tnx.defineTool({ name: "t", run: () => "x" })] });
  assert.deepEqual((await tk.tools()).map((t) => t.name), ["t"]);
  assert.deepEqual(await tk.files(), {});
  assert.equal(await tk.skillsPrompt(), "");
  assert.deepEqual((await (await tnx.createToolkit({ builtins: false })).tools()) ?? [], [], "builtins: false is fine");
  for (const opts of [{ builtins: true }, { skills: { "a/SKILL.md": "---\nname: a\n---\n" } }, { files: {} }]) {
    await assert.rejects(tnx.createToolkit(opts), /toolnexus-tools\.wasm/);
  }
});

test("the default build has no MCP client and names the build that has it", { timeout: 30_000 }, async () => {
  let fetched = 0;
  const fetch = async () => { fetched++; return new Response("{}"); };
  for (const mcpServers of [{ docs: { url: "https://mcp.test/mcp" } }, { mcpServers: { docs: { url: "https://mcp.test/mcp" } } }]) {
    await assert.rejects(tnx.createToolkit({ mcpServers, fetch }),
      (err) => /createToolkit: mcpServers need toolnexus-tools\.wasm/.test(err.message) && /default toolnexus\.wasm has no MCP client/.test(err.message));
  }
  assert.equal(fetched, 0, "no request to the server");
  assert.deepEqual(await (await tnx.createToolkit({ mcpServers: null })).mcpStatus(), {}, "no servers is fine");
});
