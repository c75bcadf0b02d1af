// injection.test.mjs — hostile model and tool text in Chromium under a
// Content-Security-Policy that forbids inline script (issue 8). Tool names,
// arguments, prompts, reasons and results carrying HTML (<img onerror>,
// <script>), javascript: URLs, bidi control characters and 1 MB strings must
// render as inert text in the approval dialog, the demo transcript and the
// <toolnexus-chat> element. Any injection would also surface as a
// securitypolicyviolation event, a console error or window.__pwned.
//
//   ./build.sh && cd tests && timeout 300 node --test --test-force-exit injection.test.mjs
//
// The pages come from a copy of dist/web served on 127.0.0.1 with the CSP
// header; the model is the shared mock (mock-llm.mjs) behind the same origin
// (POST /v1/* is proxied to it), driven by a hostile rule.

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { existsSync } from "node:fs";
import { cp, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { extname, join, normalize, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { startMockLLM, toolResultsOf } from "./mock-llm.mjs";
import { LAUNCH, withPage as withFreshPage } from "./chromium.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));
const WEB = process.env.TOOLNEXUS_WEB ?? join(process.env.TOOLNEXUS_DIST ?? join(here, "..", "dist"), "web");
const T = { timeout: 120_000 };

// The policy the pages are served with. Compiling WebAssembly needs
// 'wasm-unsafe-eval'; inline script, eval, javascript: URLs and inline style
// stay forbidden (the dialog and the element adopt constructable stylesheets,
// which style-src does not govern: csp-styles.test.mjs).
const CSP = "script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; object-src 'none'; base-uri 'none'";
// The policy of the brief, verbatim: it also forbids compiling the wasm.
const CSP_STRICT = "script-src 'self'";

// Hostile strings. Every one of them must come out of the page as the same text.
const HTML = `<img src=x onerror="window.__pwned='img'"><script>window.__pwned='script'</script><a href="javascript:window.__pwned='a'">x</a><svg onload="window.__pwned='svg'"></svg>`;
const JSURL = "javascript:window.__pwned='url'";
const BIDI = "\u202Etxt.exe\u202C \u2066iso\u2069 \u200Frlm\u200E \u061Calm \u202Aa\u202Bb\u202Cc\u202Dd";
const HOSTILE = `${HTML} ${JSURL} ${BIDI}`;
const MB = 1 << 20;
// 1 MB of words for the transcripts. (One unbroken 1 MB token is not used
// there: with the pages' system-ui font and overflow-wrap:anywhere, this
// machine's Chromium lays it out in time quadratic in its length — 64 KB
// takes about 5 s. The dialog shows an unbroken 1 MB argument, in monospace.)
const BIG = `<b>big</b>${"lorem ipsum ".repeat(MB / 12)}<img src=x onerror="window.__pwned='big'">`;
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/;

let root; // a copy of dist/web with the test pages
let server;
let mock;
let browser;

// rule is the hostile model: it reads the last user prompt.
function rule(request) {
  const msgs = request.body?.messages ?? [];
  const last = msgs.at(-1) ?? {};
  const results = toolResultsOf({ body: { messages: [last] } });
  if (results.length) return { text: `model echo: ${results.map((r) => r.content).join(" | ")}` };
  const prompt = String([...msgs].reverse().find((m) => m.role === "user")?.content ?? "");
  if (prompt.includes("refund")) return { toolCalls: [{ name: "refund", args: { order: `42 ${HOSTILE}` } }] };
  if (prompt.includes("unknown tool")) return { toolCalls: [{ name: HTML, args: { url: JSURL, bidi: BIDI } }] };
  if (prompt.includes("big reply")) return { text: BIG };
  if (prompt.includes("hostile tool")) {
    return { toolCalls: [{ name: prompt.split("|")[1], args: { html: HTML, url: JSURL, bidi: BIDI, big: "word ".repeat(MB / 5) } }] };
  }
  return { text: `you said: ${prompt}` };
}

const TYPES = { ".html": "text/html; charset=utf-8", ".mjs": "text/javascript", ".js": "text/javascript",
  ".css": "text/css", ".wasm": "application/wasm", ".json": "application/json" };

// startServer serves root with the CSP header (CSP_STRICT under /strict/) and
// proxies POST /v1/* to the mock model, so the model is same-origin.
async function startServer() {
  const srv = createServer(async (req, res) => {
    try {
      let path = decodeURIComponent(new URL(req.url, "http://x").pathname);
      if (req.method === "POST" && path.startsWith("/v1/")) {
        const chunks = [];
        for await (const c of req) chunks.push(c);
        const up = await fetch(mock.url + path, { method: "POST", headers: { "content-type": "application/json" }, body: Buffer.concat(chunks) });
        res.writeHead(up.status, { "content-type": up.headers.get("content-type") ?? "application/json" });
        return res.end(Buffer.from(await up.arrayBuffer()));
      }
      let csp = CSP;
      if (path.startsWith("/strict/")) { csp = CSP_STRICT; path = path.slice("/strict".length); }
      let file = normalize(join(root, path));
      if (!file.startsWith(root + sep)) { res.writeHead(403); return res.end(); }
      if ((await stat(file).catch(() => null))?.isDirectory()) file = join(file, "index.html");
      const body = await readFile(file).catch(() => null);
      if (!body) { res.writeHead(404); return res.end("not found"); }
      res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream",
        "content-security-policy": csp, "cache-control": "no-store", "x-content-type-options": "nosniff" });
      res.end(body);
    } catch (err) {
      res.writeHead(500); res.end(String(err));
    }
  });
  await new Promise((ok) => srv.listen(0, "127.0.0.1", ok));
  return {
    url: `http://127.0.0.1:${srv.address().port}`,
    close: () => new Promise((ok) => { srv.closeAllConnections(); srv.close(() => ok()); }),
  };
}

before(async () => {
  assert.ok(existsSync(join(WEB, "toolnexus.wasm")), `no build in ${WEB}: run ./build.sh first`);
  root = await mkdtemp(join(tmpdir(), "toolnexus-inject-"));
  await cp(WEB, root, { recursive: true });
  // Pages load only same-origin module scripts: nothing inline.
  await writeFile(join(root, "blank.html"), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>blank</title><link rel="icon" href="data:,"></head><body></body></html>`);
  await writeFile(join(root, "chat.html"), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>chat</title><link rel="icon" href="data:,">
<script type="module" src="./toolnexus-chat.mjs"></script></head><body><toolnexus-chat model="m"></toolnexus-chat></body></html>`);
  const script = new Proxy([], { get: (t, k) => (typeof k === "string" && /^\d+$/.test(k) ? rule : t[k]) });
  mock = await startMockLLM({ script });
  server = await startServer();
  browser = await chromium.launch(LAUNCH);
});

after(async () => {
  try { await browser?.close(); } finally {
    await server?.close();
    await mock?.close();
    if (root) await rm(root, { recursive: true, force: true });
  }
});

// withPage opens a fresh context (chromium.mjs) that also records CSP
// violations; check() asserts nothing came from injected content.
const withPage = (fn) => withFreshPage(browser, (page, problems) => fn(page, async () => {
  await page.waitForTimeout(300); // let any onerror / onload fire
  assert.equal(await page.evaluate(() => window.__pwned), undefined, "injected script ran");
  assert.deepEqual(await page.evaluate(() => window.__csp), [], "CSP violations (an injection attempt reached the DOM)");
  assert.deepEqual(problems, [], "console errors, page errors or JS dialogs");
}), {
  timeout: 30_000,
  init: [() => {
    window.__csp = [];
    document.addEventListener("securitypolicyviolation", (e) => {
      window.__csp.push({ directive: e.violatedDirective, blocked: e.blockedURI, sample: e.sample });
    });
  }],
});

// noMarkup asserts that no element was built from hostile text in scope.
async function noMarkup(scope) {
  assert.equal(await scope.locator("img, script, svg, a[href^='javascript' i], iframe, object").count(), 0,
    "an element was created from model or tool text");
}

test("under script-src 'self' alone the wasm may not compile: the demo says so, nothing else runs", T, async () => {
  await withPage(async (page) => {
    await page.goto(`${server.url}/strict/index.html`);
    const transcript = page.getByRole("log");
    await page.waitForFunction(() => document.querySelector("#transcript")?.textContent.includes("Could not start"), null, { timeout: 30_000 });
    assert.match(await transcript.textContent(), /Could not start the agent: .*(Wasm|WebAssembly|wasm)/i);
    const csp = await page.evaluate(() => window.__csp);
    assert.ok(csp.length >= 1 && csp.every((v) => v.directive.startsWith("script-src") && /wasm-eval|^$/.test(v.blocked)),
      `only the wasm compile is refused: ${JSON.stringify(csp)}`);
  });
});

test("approval dialog: hostile tool, source, prompt and arguments are text; bidi controls are made visible", T, async () => {
  await withPage(async (page, check) => {
    await page.goto(`${server.url}/blank.html`);
    const args = { html: HTML, url: JSURL, bidi: BIDI, nested: { [HTML]: [BIDI, 1, null] }, big: "C".repeat(MB) };
    await page.evaluate(async ({ req }) => {
      const { approvalDialog } = await import("/approval-dialog.mjs");
      window.__answer = approvalDialog()(req);
    }, { req: { id: "r1", kind: "approval", prompt: HOSTILE, url: JSURL, data: { tool: `refund${BIDI}${HTML}`, source: HOSTILE, args } } });
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    await noMarkup(page.locator("dialog"));
    const shown = {
      tool: await dialog.locator("code.tnx-tool").textContent(),
      source: await dialog.locator(".tnx-source").textContent(),
      prompt: await dialog.locator(".tnx-prompt").textContent(),
      args: await dialog.locator("pre.tnx-args").textContent(),
    };
    for (const [k, v] of Object.entries(shown)) {
      assert.ok(!BIDI_CONTROLS.test(v), `the dialog's ${k} shows raw bidi control characters, which can reorder what the approver reads`);
    }
    assert.ok(shown.tool.includes(HTML) && shown.source.includes(HTML) && shown.prompt.includes(HTML));
    assert.ok(shown.tool.includes("\\u202e") || shown.tool.includes("\\u202E"), `bidi made visible: ${shown.tool}`);
    assert.deepEqual(JSON.parse(shown.args), args, "the arguments shown are exactly the ones that will run");
    assert.equal(await dialog.locator(".tnx-url").count(), 0);
    await dialog.getByRole("button", { name: "Approve" }).click();
    assert.deepEqual(await page.evaluate(() => window.__answer), { id: "r1", ok: true });
    await check();
  });
});

test("approval dialog: an authorization URL is shown, as text, only for http(s)", T, async () => {
  await withPage(async (page, check) => {
    await page.goto(`${server.url}/blank.html`);
    const cases = [
      ["javascript:window.__pwned='u1'", false], [" javascript:window.__pwned='u2'", false],
      ["JaVaScRiPt:window.__pwned='u3'", false], ["\tjavascript:alert(1)", false],
      ["data:text/html,<script>window.__pwned='u4'</script>", false], ["vbscript:msgbox(1)", false],
      ["file:///etc/passwd", false], ["//evil.example/login", false], ["https:evil.example", false],
      ["blob:https://evil.example/x", false], [{ toString: () => "https://evil.example" }, false],
      ["https://login.example/?a=<img src=x onerror=window.__pwned='u5'>", true],
      [`HTTPS://LOGIN.EXAMPLE/${BIDI}`, true], ["http://user@login.example/", true],
    ];
    for (const [i, [url, shown]] of cases.entries()) {
      await page.evaluate(async ({ id, url, isObj }) => {
        const { approvalDialog } = await import("/approval-dialog.mjs");
        const u = isObj ? { toString: () => "https://evil.example" } : url;
        window.__answer = approvalDialog()({ id, kind: "authorization", prompt: "Sign in", url: u });
      }, { id: `a${i}`, url: typeof url === "string" ? url : null, isObj: typeof url !== "string" });
      const dialog = page.getByRole("dialog");
      await dialog.waitFor();
      await noMarkup(page.locator("dialog"));
      const count = await dialog.locator(".tnx-url").count();
      assert.equal(count, shown ? 1 : 0, `URL ${JSON.stringify(String(url))} shown=${count}`);
      if (shown) {
        const text = await dialog.locator(".tnx-url").textContent();
        assert.equal(text.replace(/\\u([0-9a-fA-F]{4})/g, (_, h) => String.fromCharCode(parseInt(h, 16))), url);
        assert.ok(!BIDI_CONTROLS.test(text), "raw bidi controls in the URL");
        assert.equal(await dialog.locator(".tnx-url").evaluate((e) => e.closest("a") === null && e.localName !== "a"), true, "shown as text, not a link");
      }
      await dialog.getByRole("button", { name: "Decline" }).click();
      assert.equal((await page.evaluate(() => window.__answer)).ok, false);
    }
    await check();
  });
});

// openDemo opens the demo page and points it at the same-origin mock model.
async function openDemo(page) {
  await page.goto(`${server.url}/index.html`);
  await page.waitForSelector("html[data-ready='1']");
  await page.getByLabel("OpenAI-compatible endpoint").check();
  await page.getByLabel("Base URL").fill(`${server.url}/v1`);
  await page.getByLabel("Model", { exact: true }).fill("m");
  await page.getByLabel("API key").fill("k");
}

async function sendDemo(page, text) {
  const before = await page.locator("#transcript .entry").count();
  await page.getByRole("textbox", { name: "Message" }).fill(text);
  await page.getByRole("button", { name: "Send" }).click();
  return before;
}

const demoIdle = (page) => page.waitForFunction(() => !document.getElementById("send").disabled && !document.querySelector("dialog[open]"), null, { timeout: 60_000 });

test("demo transcript: hostile prompts, tool names, arguments, reasons, results and a 1 MB reply are text", T, async () => {
  await withPage(async (page, check) => {
    await openDemo(page);
    const transcript = page.locator("#transcript");

    await sendDemo(page, `echo ${HOSTILE}`);
    await demoIdle(page);
    assert.ok((await transcript.textContent()).includes(`you said: echo ${HOSTILE}`));

    // A hostile tool name the toolkit does not have: an error result, shown literally.
    await sendDemo(page, "call an unknown tool");
    await demoIdle(page);
    assert.ok((await transcript.textContent()).includes(HTML), "the unknown tool name is shown");

    // refund with hostile arguments: decline with a hostile reason.
    await sendDemo(page, "refund please");
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    assert.deepEqual(JSON.parse(await dialog.locator("pre.tnx-args").textContent()), { order: `42 ${HOSTILE}` });
    await noMarkup(page.locator("dialog"));
    await dialog.getByRole("textbox", { name: "Reason" }).fill(`no ${HTML}`);
    await dialog.getByRole("button", { name: "Decline" }).click();
    await demoIdle(page);
    assert.ok((await transcript.textContent()).includes(`declined: no ${HTML}`));

    // refund approved: exactly the shown arguments ran.
    await sendDemo(page, "refund again");
    await dialog.waitFor();
    const shown = JSON.parse(await dialog.locator("pre.tnx-args").textContent());
    await dialog.getByRole("button", { name: "Approve" }).click();
    await demoIdle(page);
    assert.ok((await transcript.textContent()).includes(`refunded order ${shown.order}`), "the tool ran with the shown arguments");

    await sendDemo(page, "a big reply");
    await demoIdle(page);
    const text = await transcript.textContent();
    assert.ok(text.includes(BIG), "the 1 MB reply is shown whole, as text");

    await noMarkup(transcript);
    await check();
  });
});

test("<toolnexus-chat>: a hostile tool name is refused as text; hostile arguments, a 1 MB result and the echo are text; the shown args are the ones that ran", T, async () => {
  await withPage(async (page, check) => {
    await page.goto(`${server.url}/chat.html`);
    const el = page.locator("toolnexus-chat");
    const configure = (toolName) => page.evaluate(async ({ base, toolName, result }) => {
      const { defineTool } = await import("/toolnexus.mjs");
      const el = document.querySelector("toolnexus-chat");
      window.__ran = [];
      el.baseUrl = base;
      el.apiKey = "k";
      el.tools = [defineTool({ name: toolName, description: "hostile", needsApproval: true,
        inputSchema: { type: "object", properties: {} }, run: (args) => { window.__ran.push(args); return result; } })];
    }, { base: `${server.url}/v1`, toolName, result: `${HTML}${BIG}` });

    // core accepts only [A-Za-z0-9_-]{1,64} as a tool name: a hostile one is an error, shown as text.
    await configure(`note${BIDI}<img src=x onerror="window.__pwned='name'">`);
    await page.waitForFunction(() => /tool name/.test(document.querySelector("toolnexus-chat").shadowRoot.querySelector("[role=log]").textContent));
    assert.match(await el.getByRole("log").textContent(), /tool name "note.*<img src=x onerror=.*": use 1-64 letters/);
    await noMarkup(el);

    await configure("note_tool");
    await page.waitForSelector("toolnexus-chat[ready]", { timeout: 30_000 });
    await el.getByRole("textbox", { name: "Message" }).fill("hostile tool|note_tool");
    await el.getByRole("button", { name: "Send" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    assert.equal(await dialog.locator("code.tnx-tool").textContent(), "note_tool");
    const shownArgs = JSON.parse(await dialog.locator("pre.tnx-args").textContent());
    assert.deepEqual(Object.keys(shownArgs).sort(), ["bidi", "big", "html", "url"]);
    await noMarkup(page.locator("dialog"));
    await dialog.getByRole("button", { name: "Approve" }).click();
    await page.waitForFunction(() => document.querySelector("toolnexus-chat")?.shadowRoot?.querySelector("[role=log]")?.textContent.includes("model echo:"), null, { timeout: 60_000 });
    const ran = await page.evaluate(() => window.__ran);
    assert.equal(ran.length, 1);
    assert.deepEqual(ran[0], shownArgs, "the dialog showed exactly the arguments that ran");
    const text = await el.getByRole("log").textContent();
    assert.ok(text.includes(`model echo: ${HTML}${BIG}`), "the 1 MB result comes back as text");

    // The model calls a tool that does not exist, named with HTML: an error result, as text.
    await el.getByRole("textbox", { name: "Message" }).fill("call an unknown tool");
    await el.getByRole("button", { name: "Send" }).click();
    await page.waitForFunction(() => (document.querySelector("toolnexus-chat").shadowRoot.querySelector("[role=log]").textContent.match(/model echo:/g) ?? []).length >= 2, null, { timeout: 60_000 });
    assert.ok((await el.getByRole("log").textContent()).includes(HTML));
    await noMarkup(el);
    await check();
  });
});
