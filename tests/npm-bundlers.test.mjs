// npm-bundlers.test.mjs — the npm package in the bundlers people use (issue
// 34). One scratch app installs the tarball ./build.sh packed, as a user
// would; its src/ is the README's two React apps (useChat + chatTransport,
// and <toolnexus-chat>) on one page, under Vite's React template's
// index.html and main.jsx. The app is built once per bundler: `vite build`
// with the template's config, webpack 5 (JSX through a small esbuild
// loader, nothing for the package), and esbuild with the README's flags.
// Each build is served and driven in Chromium: `refund order 42` → the
// approval UI → approve → the result, in the useChat app and in the element,
// with no console errors, and the wasm fetched from the bundle's own asset
// (hashed by Vite and webpack). Vite's dev server runs the same page.
//
//   ./build.sh && cd tests && timeout 400 node --test --test-force-exit npm-bundlers.test.mjs

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join, sep } from "node:path";
import { transform } from "esbuild";
import { chromium } from "playwright-core";
import { build as viteBuild, createServer as viteServer } from "vite";
import webpack from "webpack";
import { LAUNCH, withPage } from "./chromium.mjs";
import { readmeBlock, run, scratchApp } from "./npm-app.mjs";
import { serve } from "../scripts/serve.mjs";

const T = { timeout: 120_000 };
const here = new URL(".", import.meta.url);

// Vite's React template (npm create vite -- --template react), with both
// README apps mounted side by side, and the element entry's exports kept
// where the test reads them.
const INDEX_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <link rel="icon" href="data:," />
    <meta name="viewport" content="width=device-width, initial-scale=1.0" />
    <title>shop</title>
  </head>
  <body>
    <div id="root"></div>
    <script type="module" src="/src/main.jsx"></script>
  </body>
</html>
`;
const MAIN_JSX = `import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import * as elementEntry from "toolnexus-wasm/element";
import ChatApp from "./ChatApp.jsx";
import ElementApp from "./ElementApp.jsx";

window.__elementExports = Object.keys(elementEntry);
createRoot(document.getElementById("root")).render(<StrictMode><ChatApp /><ElementApp /></StrictMode>);
`;
const VITE_CONFIG = `import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";

export default defineConfig({ plugins: [react()] });
`;
// webpack has no JSX of its own: this loader hands .jsx to esbuild's
// transform (React's automatic runtime). The package itself needs no rule.
const JSX_LOADER = `const { transformSync } = require("esbuild");
module.exports = function (source) {
  return transformSync(source, { loader: "jsx", jsx: "automatic", format: "esm", target: "es2022" }).code;
};
`;

let app, browser, wasmSum;
const builds = {}; // bundler → {dir: the folder served, page: its path}

before(async () => {
  app = await scratchApp({
    links: ["react", "react-dom", "ai", "@ai-sdk/react", "vite", "@vitejs/plugin-react", "esbuild"],
    bins: { esbuild: "esbuild/bin/esbuild" },
  });
  const dir = app.dir;
  await mkdir(join(dir, "src"));
  await writeFile(join(dir, "index.html"), INDEX_HTML);
  await writeFile(join(dir, "vite.config.js"), VITE_CONFIG);
  await writeFile(join(dir, "src", "main.jsx"), MAIN_JSX);
  await writeFile(join(dir, "src", "ChatApp.jsx"), `${readmeBlock("vite-usechat")}\n`);
  await writeFile(join(dir, "src", "ElementApp.jsx"), `${readmeBlock("vite-element")}\n`);
  await writeFile(join(dir, "jsx-loader.cjs"), JSX_LOADER);
  wasmSum = sha(await readFile(join(dir, "node_modules", "toolnexus-wasm", "toolnexus.wasm")));
  // The three builds at once: Vite and esbuild are native, webpack is not.
  await Promise.all([buildVite(dir), buildWebpack(dir), buildEsbuild(dir)]);
  browser = await chromium.launch(LAUNCH);
});

after(async () => {
  await browser?.close();
  await app?.close();
});

const sha = (bytes) => createHash("sha256").update(bytes).digest("hex");

async function buildVite(dir) {
  await viteBuild({ root: dir, configFile: join(dir, "vite.config.js"), logLevel: "error" });
  builds.vite = { dir: join(dir, "dist"), page: "/" };
}

async function buildWebpack(dir) {
  const out = join(dir, "dist-webpack");
  const stats = await new Promise((resolve, reject) => webpack({
    mode: "production",
    context: dir,
    entry: "./src/main.jsx",
    output: { path: out, filename: "[name].[contenthash].js", clean: true },
    module: { rules: [{ test: /\.jsx$/, loader: join(dir, "jsx-loader.cjs") }] },
    resolve: { extensions: [".js", ".jsx"] },
    performance: { hints: false },
  }, (err, s) => (err ? reject(err) : resolve(s))));
  assert.ok(!stats.hasErrors(), stats.toString({ all: false, errors: true }));
  const main = stats.toJson({ all: false, entrypoints: true }).entrypoints.main.assets.map((a) => a.name).find((n) => n.endsWith(".js"));
  await writeFile(join(out, "index.html"), INDEX_HTML.replace('<script type="module" src="/src/main.jsx"></script>', `<script defer src="/${main}"></script>`));
  builds.webpack = { dir: out, page: "/" };
}

async function buildEsbuild(dir) {
  // The README's command, as written, from the app's folder.
  await run("bash", ["-euo", "pipefail", "-c", readmeBlock("esbuild")], { cwd: dir, timeout: 120_000, env: { ...process.env, npm_config_offline: "true" } });
  await writeFile(join(dir, "public", "index.html"), INDEX_HTML.replace("/src/main.jsx", "build/main.js"));
  builds.esbuild = { dir: join(dir, "public"), page: "/" };
}

// drive plays the scenario on the page at url and returns the paths of the
// wasm files it fetched; scenario is useChat's refund 42 → Approve →
// result, then the same in the element with its dialog.
async function drive(page, problems, url) {
  const wasm = [];
  const failed = [];
  page.on("response", (r) => {
    if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
    if (new URL(r.url()).pathname.endsWith(".wasm")) wasm.push(new URL(r.url()).pathname);
  });
  await page.goto(url);
  try {
    await scenario(page);
  } catch (err) {
    // A page that never renders (a wasm or module not found) shows why here.
    err.message += `\n  console: ${JSON.stringify(problems)}\n  failed requests: ${JSON.stringify(failed)}`;
    throw err;
  }
  assert.deepEqual(failed, [], "every file the page asked for was there");
  assert.deepEqual(problems, [], "no console errors");
  return wasm;
}

async function scenario(page) {
  // useChat with chatTransport: the approval comes to the UI as the AI SDK's own part.
  const main = page.locator("main");
  await main.getByRole("textbox", { name: "Message" }).fill("refund order 42");
  await main.getByRole("button", { name: "Send" }).click();
  const tool = main.locator(".tool");
  await tool.getByRole("button", { name: "Approve" }).click();
  await page.waitForFunction(() => /refund order 42: refunded order 42/.test(document.querySelector("main .tool")?.textContent ?? "") &&
    [...document.querySelectorAll("main p")].some((p) => /^Done: refunded order 42/.test(p.textContent)));
  // The element in the same app, with its approval dialog.
  await page.waitForSelector("toolnexus-chat[ready]");
  const el = page.locator("toolnexus-chat");
  await el.getByRole("textbox", { name: "Message" }).fill("refund order 42");
  await el.getByRole("button", { name: "Send" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("button", { name: "Approve" }).click();
  await page.waitForFunction(() => {
    const chat = document.querySelector("toolnexus-chat");
    return !chat.hasAttribute("busy") && /Done: refunded order 42/.test(chat.shadowRoot.querySelector("[role=log]").textContent);
  });
}

// checkWasm: every wasm the page fetched is the default build, from the
// bundle's own output (a file there, byte for byte the package's).
async function checkWasm(fetched, dir, name) {
  assert.ok(fetched.length > 0, "the page fetched the wasm");
  for (const path of new Set(fetched)) {
    assert.match(path, name, `${path} is the bundle's name for toolnexus.wasm`);
    const file = join(dir, ...path.split("/").filter(Boolean));
    assert.ok(file.startsWith(dir + sep) && existsSync(file), `${path} is a file of the build output`);
    assert.equal(sha(await readFile(file)), wasmSum, `${path} is the package's toolnexus.wasm`);
  }
}

async function served(name, fn) {
  const server = await serve({ root: builds[name].dir, port: 0 });
  try {
    await withPage(browser, (page, problems) => fn(page, problems, new URL(builds[name].page, server.url).href), { timeout: 30_000 });
  } finally {
    await server.close();
  }
}

test("Vite + React (vite build): useChat and the element approve refund 42; the wasm is Vite's hashed asset", T, async () => {
  await served("vite", async (page, problems, url) => {
    const fetched = await drive(page, problems, url);
    await checkWasm(fetched, builds.vite.dir, /^\/assets\/toolnexus-[A-Za-z0-9_-]{6,}\.wasm$/);
    // The element's entry and members are what its types say (npm-types.ts).
    const { MODULES, OBJECTS } = await typeLists();
    assert.deepEqual(await page.evaluate(() => window.__elementExports.sort()), Object.keys(MODULES["toolnexus-wasm/element"]).sort());
    const kinds = await page.evaluate(([own, statics]) => {
      const el = document.querySelector("toolnexus-chat");
      const cls = customElements.get("toolnexus-chat");
      const kind = (v) => (v === null ? "null" : typeof v);
      return [Object.fromEntries(own.map((k) => [k, kind(el[k])])), Object.fromEntries(statics.map((k) => [k, kind(cls[k])]))];
    }, [Object.keys(OBJECTS.ToolnexusChatElement), Object.keys(OBJECTS.ToolnexusChatElementClass)]);
    for (const [list, got] of [[OBJECTS.ToolnexusChatElement, kinds[0]], [OBJECTS.ToolnexusChatElementClass, kinds[1]]]) {
      for (const [key, want] of Object.entries(list)) {
        const ok = want.endsWith("?") ? [want.slice(0, -1), "undefined"].includes(got[key]) : got[key] === want;
        assert.ok(ok, `<toolnexus-chat>.${key}: a ${got[key]}, the types say ${want}`);
      }
    }
  });
});

test("Vite + React (vite dev): the same page runs from the dev server", T, async () => {
  const server = await viteServer({ root: app.dir, configFile: join(app.dir, "vite.config.js"), logLevel: "error",
    server: { host: "127.0.0.1", port: 0, strictPort: false, hmr: false } });
  await server.listen();
  try {
    await withPage(browser, async (page, problems) => {
      const fetched = await drive(page, problems, server.resolvedUrls.local[0]);
      assert.ok(fetched.length > 0 && fetched.every((p) => p.endsWith("/toolnexus-wasm/toolnexus.wasm")), `fetched ${fetched}`);
    }, { timeout: 30_000 });
  } finally {
    await server.close();
  }
});

test("webpack 5: the same app builds and runs; the wasm is webpack's hashed asset", T, async () => {
  await served("webpack", async (page, problems, url) => {
    await checkWasm(await drive(page, problems, url), builds.webpack.dir, /^\/[0-9a-f]{16,}\.wasm$/);
  });
});

test("esbuild with the README's flags: the same app builds and runs; the wasm sits beside the bundle", T, async () => {
  await served("esbuild", async (page, problems, url) => {
    await checkWasm(await drive(page, problems, url), builds.esbuild.dir, /^\/build\/toolnexus\.wasm$/);
  });
});

// typeLists loads npm-types.ts's lists (types stripped; its imports are types only).
let lists = null;
async function typeLists() {
  if (!lists) {
    const { code } = await transform(await readFile(new URL("npm-types.ts", here), "utf8"), { loader: "ts", format: "esm" });
    lists = await import(`data:text/javascript;base64,${Buffer.from(code).toString("base64")}`);
  }
  return lists;
}
