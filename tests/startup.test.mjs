// startup.test.mjs — the first seconds of a visit (issue 27): the demo page
// and <toolnexus-chat> take a message before the wasm is ready and send it
// once it is; the wasm is fetched under its content-hashed name, served
// immutable (a returning visitor does not fetch it again) and brotli-
// compressed; the demo's preload hint is used, without console errors.
// The wasm response is held back by a route handler, so the not-ready window
// is as long as the test wants. No timing is asserted (bench/startup.mjs
// measures it).
//
//   ./build.sh build && cd tests && timeout 300 node --test startup.test.mjs

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { get } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { LAUNCH, startSite, withPage } from "./chromium.mjs";
import { serve } from "../scripts/serve.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));
const WEB = join(process.env.TOOLNEXUS_DIST ?? join(here, "..", "dist"), "web");
const T = { timeout: 90_000 };
const HASHED_WASM = /\/toolnexus(-tools)?\.[0-9a-f]{10}\.wasm$/;

let site;
before(async () => {
  assert.ok(existsSync(join(WEB, "toolnexus.wasm")), `no build in ${WEB}: run ./build.sh first`);
  site = await startSite(WEB, { scratch: true });
});
after(async () => { await site?.close(); });

// holdWasm routes every wasm request through a gate: nothing is answered
// until release() is called. held() resolves once a request is waiting.
async function holdWasm(page) {
  let release, arrived;
  const gate = new Promise((r) => { release = r; });
  const held = new Promise((r) => { arrived = r; });
  const urls = [];
  await page.route(/\.wasm$/, async (route) => {
    urls.push(route.request().url());
    arrived();
    await gate;
    await route.continue();
  });
  return { release, held: () => held, urls };
}

test("the demo page takes a message while the wasm loads and sends it once it is ready", T, async () => {
  await withPage(site.browser, async (page, problems) => {
    const wasm = await holdWasm(page);
    await page.goto(site.server.url);
    await wasm.held();
    const box = page.getByRole("textbox", { name: "Message" });
    await box.waitFor();
    assert.ok(await box.isEditable(), "the message box takes input before the wasm is ready");
    assert.equal(await page.locator("#busy").textContent(), "Loading the agent…");
    await box.fill("add 2 and 3");
    await page.getByRole("button", { name: "Send" }).click();
    const log = page.getByRole("log", { name: "Transcript" });
    await log.getByText("add 2 and 3").waitFor();
    assert.match(await page.locator("#busy").textContent(), /^Loading the agent…/);
    assert.doesNotMatch(await log.textContent(), /2 \+ 3 = 5/);
    assert.equal(await page.evaluate(() => document.documentElement.dataset.ready), undefined, "still loading");
    wasm.release();
    await page.waitForFunction(() => /2 \+ 3 = 5/.test(document.getElementById("transcript").textContent) &&
      !document.getElementById("send").disabled);
    assert.ok(wasm.urls.every((u) => HASHED_WASM.test(u)), `content-hashed names: ${wasm.urls}`);
    assert.deepEqual(problems, []);
  });
});

test("the demo page: Enter before demo.mjs has run keeps the draft and does not reload the page", T, async () => {
  await withPage(site.browser, async (page, problems) => {
    let release;
    const gate = new Promise((r) => { release = r; });
    await page.route(/\/demo\.mjs$/, async (route) => { await gate; await route.continue(); });
    await page.goto(site.server.url, { waitUntil: "commit" }); // DOMContentLoaded waits for module scripts
    const box = page.getByRole("textbox", { name: "Message" });
    await box.fill("add 2 and 3");
    await box.press("Enter");
    await page.waitForTimeout(300);
    assert.equal(new URL(page.url()).search, "", "the form was not submitted natively");
    release();
    const send = page.getByRole("button", { name: "Send" });
    await send.click(); // enabled once demo.mjs has run
    await page.waitForFunction(() => /2 \+ 3 = 5/.test(document.getElementById("transcript").textContent));
    assert.deepEqual(problems, []);
  });
});

test("<toolnexus-chat> shows it is loading, takes a message and sends it once the wasm is ready", T, async () => {
  const name = "startup-element.html";
  await writeFile(join(site.root, "examples", name), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>t</title>
<script type="module" src="../toolnexus-chat.mjs"></script></head><body>
<toolnexus-chat demo></toolnexus-chat>
</body></html>`);
  await withPage(site.browser, async (page, problems) => {
    const wasm = await holdWasm(page);
    await page.goto(`${site.server.url}examples/${name}`);
    await wasm.held();
    const el = page.locator("toolnexus-chat");
    const status = el.getByRole("status");
    await page.waitForFunction(() => document.querySelector("toolnexus-chat")?.shadowRoot?.querySelector("[role=status]")?.textContent !== "");
    assert.equal(await status.textContent(), "Loading the agent…", "the element says it is loading before anything is sent");
    assert.equal(await el.getAttribute("ready"), null);
    await el.getByRole("textbox", { name: "Message" }).fill("add 2 and 3");
    await el.getByRole("button", { name: "Send" }).click();
    await el.getByRole("log").getByText("add 2 and 3").waitFor();
    assert.equal(await status.textContent(), "Loading the agent…");
    wasm.release();
    await page.waitForFunction(() => {
      const e = document.querySelector("toolnexus-chat");
      return !e.hasAttribute("busy") && /2 \+ 3 = 5/.test(e.shadowRoot.querySelector("[role=log]").textContent);
    });
    assert.equal(await status.textContent(), "");
    assert.ok(wasm.urls.length > 0 && wasm.urls.every((u) => HASHED_WASM.test(u)), `content-hashed names: ${wasm.urls}`);
    assert.deepEqual(problems, []);
  });
});

test("the demo page's preload hint is used: one wasm download, no console errors or preload warnings", T, async () => {
  await withPage(site.browser, async (page, problems) => {
    const warnings = [];
    page.on("console", (m) => { if (m.type() === "warning") warnings.push(m.text()); });
    const wasm = [];
    page.on("request", (r) => { if (/\.wasm$/.test(r.url())) wasm.push(r.url()); });
    await page.goto(site.server.url);
    assert.equal(await page.locator('link[rel=preload][as=fetch]').count(), 1);
    const hint = await page.locator('link[rel=preload][as=fetch]').getAttribute("href");
    assert.match(hint, /^toolnexus-tools\.[0-9a-f]{10}\.wasm$/, "the build rewrote the hint to the hashed name");
    await page.waitForSelector("html[data-ready='1']");
    await page.waitForTimeout(3500); // Chromium warns about an unused preload after ~3 s
    assert.deepEqual(wasm, [new URL(hint, site.server.url).href], "the preloaded response is the one compiled");
    assert.deepEqual(warnings.filter((w) => /preload/i.test(w)), []);
    assert.deepEqual(problems, []);
  });
});

test("a returning visitor gets the hashed wasm from its cache: immutable, not fetched again", T, async () => {
  const profile = await mkdtemp(join(tmpdir(), "toolnexus-profile-"));
  const hits = [];
  const server = await serve({ root: WEB, port: 0, onRequest: (req) => hits.push(req.url) });
  try {
    const visit = async () => {
      // A new browser process on the same profile: what a returning visitor has.
      const context = await chromium.launchPersistentContext(profile, LAUNCH);
      try {
        const page = context.pages()[0] ?? await context.newPage();
        const headers = {};
        page.on("response", (r) => { if (HASHED_WASM.test(r.url())) headers[r.url()] = r.headers()["cache-control"]; });
        await page.goto(server.url);
        await page.waitForSelector("html[data-ready='1']", { timeout: 30_000 });
        return headers;
      } finally {
        await context.close();
      }
    };
    const first = await visit();
    const wasmHits = () => hits.filter((u) => /\.wasm$/.test(u));
    assert.equal(wasmHits().length, 1, `first visit fetches the wasm once: ${wasmHits()}`);
    assert.match(wasmHits()[0], HASHED_WASM);
    assert.deepEqual(Object.values(first), ["public, max-age=31536000, immutable"]);
    hits.length = 0;
    await visit();
    assert.deepEqual(wasmHits(), [], "the repeat visit does not ask the server for the wasm");
    assert.ok(hits.includes("/"), "the page itself is revalidated");
  } finally {
    await server.close();
    await rm(profile, { recursive: true, force: true });
  }
});

// head asks the server for path with extra request headers; it resolves to {status, headers}.
function head(url, headers = {}) {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (res) => { res.resume(); res.on("end", () => resolve({ status: res.statusCode, headers: res.headers })); })
      .on("error", reject);
  });
}

test("serve.mjs: hashed names immutable, the rest revalidated (304), brotli when accepted", T, async () => {
  const server = await serve({ root: WEB, port: 0 });
  try {
    const hashed = readdirSync(WEB).find((f) => /^toolnexus\.[0-9a-f]{10}\.wasm$/.test(f));
    assert.ok(hashed, "the build wrote toolnexus.<hash>.wasm");
    const h = await head(server.url + hashed, { "accept-encoding": "gzip, br" });
    assert.equal(h.status, 200);
    assert.equal(h.headers["cache-control"], "public, max-age=31536000, immutable");
    assert.equal(h.headers["content-type"], "application/wasm");
    assert.equal(h.headers["content-encoding"], "br");
    assert.equal(h.headers.vary, "accept-encoding");
    const plain = await head(server.url + hashed, { "accept-encoding": "gzip" });
    assert.equal(plain.headers["content-encoding"], undefined);
    assert.ok(Number(plain.headers["content-length"]) > Number(h.headers["content-length"]), "brotli is smaller");
    const page = await head(server.url + "toolnexus.wasm", {});
    assert.equal(page.headers["cache-control"], "no-cache", "the plain name is revalidated, not no-store");
    const again = await head(server.url + "toolnexus.wasm", { "if-none-match": page.headers.etag });
    assert.equal(again.status, 304);
  } finally {
    await server.close();
  }
});
