// browser.test.mjs — end-to-end tests of the demo page and the approval dialog in
// headless Debian chromium (playwright-core, no downloaded browsers).
//
//   ./build.sh && cd tests && timeout 300 node --test browser.test.mjs
//
// The built bundle is read from $TOOLNEXUS_WEB, else $TOOLNEXUS_DIST/web, else ../dist/web.

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { startSite, withPage as openPage } from "./chromium.mjs";
import { idle, openDemoAt, send } from "./demo-page.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));
const WEB = process.env.TOOLNEXUS_WEB ?? join(process.env.TOOLNEXUS_DIST ?? join(here, "..", "dist"), "web");
const ARTIFACTS = join(here, "artifacts");
const T = { timeout: 60_000 };

let site;
let server;
let browser;

before(async () => {
  assert.ok(existsSync(join(WEB, "toolnexus.wasm")), `no build in ${WEB}: run ./build.sh first`);
  site = await startSite(WEB);
  ({ server, browser } = site);
});

after(async () => {
  await site?.close();
});

// withPage: a fresh context per test, always closed (chromium.mjs).
const withPage = (fn) => openPage(browser, fn, { timeout: 15_000 });

const openDemo = (page) => openDemoAt(page, server.url);

// dialogReady waits until the dialog is open and has put focus on Decline.
async function dialogReady(page) {
  await page.getByRole("dialog").waitFor();
  await page.waitForFunction(() => document.activeElement?.matches("dialog[open] button.tnx-decline"));
}

const log = (page) => page.getByRole("log");

test("the demo page loads with no console errors and reports ready", T, async (t) => {
  await withPage(async (page, problems) => {
    await openDemo(page);
    const ms = await page.evaluate(() => performance.getEntriesByName("toolnexus:ready")[0]?.startTime);
    assert.ok(ms > 0, "the toolnexus:ready mark is recorded");
    t.diagnostic(`navigation to ready: ${Math.round(ms)} ms`);
    assert.ok(await page.evaluate(() => performance.getEntriesByName("toolnexus:wasm-loaded").length === 1));
    await assert.doesNotReject(page.getByRole("button", { name: "Send" }).isEnabled());
    assert.deepEqual(problems, []);
  });
});

test("refund: Decline with a reason — the answer quotes it and the run ends normally", T, async () => {
  await withPage(async (page, problems) => {
    await openDemo(page);
    await send(page, "refund order 42");
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    assert.match(await dialog.locator("code.tnx-tool").textContent(), /^refund$/);
    assert.match(await dialog.locator("pre").textContent(), /"order": "42"/);
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), "Decline", "Decline has focus first");
    assert.ok(await dialog.getAttribute("aria-labelledby"));
    assert.ok(await dialog.getAttribute("aria-describedby"));
    await dialog.getByRole("textbox", { name: "Reason" }).fill("over the refund limit");
    await mkdir(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, "dialog.png") });
    await dialog.getByRole("button", { name: "Decline" }).click();
    await idle(page);
    const text = await log(page).textContent();
    assert.match(text, /I did not refund order 42: "over the refund limit"/);
    assert.match(text, /Declinedover the refund limit/);
    assert.doesNotMatch(text, /refunded order/);
    assert.doesNotMatch(text, /Error/);
    assert.deepEqual(problems, []);
  });
});

test("refund: Approve — the tool runs and the transcript shows refunded", T, async () => {
  await withPage(async (page, problems) => {
    await openDemo(page);
    await send(page, "refund 42");
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("button", { name: "Approve" }).click();
    await idle(page);
    const text = await log(page).textContent();
    assert.match(text, /refunded order 42/);
    assert.doesNotMatch(text, /did not refund/);
    // A second message in the same conversation still works (history itself is
    // asserted in node.test.mjs, where the requests are visible).
    await send(page, "add 2 and 3");
    await idle(page);
    assert.match(await log(page).textContent(), /2 \+ 3 = 5/);
    assert.deepEqual(problems, []);
  });
});

test("refund: Escape declines with reason cancelled", T, async () => {
  await withPage(async (page, problems) => {
    await openDemo(page);
    await send(page, "refund order 7");
    await dialogReady(page);
    await page.keyboard.press("Escape");
    await idle(page);
    assert.match(await log(page).textContent(), /I did not refund order 7: "cancelled"/);
    assert.equal(await page.locator("dialog").count(), 0, "the dialog is gone");
    assert.deepEqual(problems, []);
  });
});

test("dialog: focus is trapped, returns to the opener; expiry and abort decline", T, async () => {
  await withPage(async (page) => {
    await openDemo(page);
    // Open a dialog directly through approvalDialog() with a focused opener.
    await page.evaluate(async () => {
      const { approvalDialog } = await import("./toolnexus.mjs");
      const opener = Object.assign(document.createElement("button"), { id: "opener", textContent: "opener" });
      document.body.append(opener);
      opener.focus();
      window.__answer = approvalDialog()({ id: "r1", kind: "approval", data: { tool: "t", source: "js", args: {} } });
    });
    await page.getByRole("dialog").waitFor();
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press(i % 2 ? "Shift+Tab" : "Tab");
      assert.ok(await page.evaluate(() => !!document.activeElement?.closest("dialog")), "focus stays in the dialog");
    }
    await page.getByRole("button", { name: "Approve" }).click();
    assert.deepEqual(await page.evaluate(() => window.__answer), { id: "r1", ok: true });
    assert.equal(await page.evaluate(() => document.activeElement?.id), "opener");

    const expired = await page.evaluate(async () => {
      const { approvalDialog } = await import("./toolnexus.mjs");
      const expiresAt = new Date(Date.now() + 600).toISOString();
      return approvalDialog()({ id: "r2", kind: "approval", expiresAt, data: { tool: "t", args: {} } });
    });
    assert.deepEqual(expired, { id: "r2", ok: false, reason: "expired" });

    const aborted = await page.evaluate(async () => {
      const { approvalDialog } = await import("./toolnexus.mjs");
      const ctrl = new AbortController();
      setTimeout(() => ctrl.abort(), 300);
      return approvalDialog()({ id: "r3", kind: "approval", data: { tool: "t", args: {} } }, { signal: ctrl.signal });
    });
    assert.deepEqual(aborted, { id: "r3", ok: false, reason: "aborted" });
    assert.equal(await page.locator("dialog").count(), 0);
  });
});

test("dialog: concurrent requests are shown one at a time, in order", T, async () => {
  await withPage(async (page) => {
    await openDemo(page);
    await page.evaluate(async () => {
      const { approvalDialog } = await import("./toolnexus.mjs");
      const waitFor = approvalDialog();
      window.__answers = [];
      for (const id of ["q1", "q2"]) {
        waitFor({ id, kind: "approval", data: { tool: `tool_${id}`, args: {} } }).then((a) => window.__answers.push(a));
      }
    });
    const dialog = page.getByRole("dialog");
    assert.equal(await dialog.locator("code.tnx-tool").textContent(), "tool_q1");
    assert.equal(await page.locator("dialog[open]").count(), 1);
    await dialog.getByRole("button", { name: "Approve" }).click();
    await page.waitForFunction(() => document.querySelector("dialog[open] code.tnx-tool")?.textContent === "tool_q2");
    await page.keyboard.press("Escape");
    await page.waitForFunction(() => window.__answers.length === 2);
    assert.deepEqual(await page.evaluate(() => window.__answers),
      [{ id: "q1", ok: true }, { id: "q2", ok: false, reason: "cancelled" }]);
  });
});

test("dialog: non-approval requests show the prompt, and only an http(s) URL, as text", T, async () => {
  await withPage(async (page) => {
    await openDemo(page);
    const show = (req) => page.evaluate(async (req) => {
      const { approvalDialog } = await import("./toolnexus.mjs");
      window.__pending = approvalDialog()(req);
    }, req);
    await show({ id: "a1", kind: "authorization", prompt: "Sign in to <b>Example</b>", url: "javascript:alert(1)" });
    const dialog = page.getByRole("dialog");
    assert.equal(await dialog.locator(".tnx-prompt").textContent(), "Sign in to <b>Example</b>");
    assert.equal(await dialog.locator(".tnx-url").count(), 0, "a javascript: URL is not shown");
    await dialog.getByRole("textbox", { name: "Reason" }).fill("not now");
    await dialog.getByRole("button", { name: "Decline" }).click();
    assert.deepEqual(await page.evaluate(() => window.__pending), { id: "a1", ok: false, reason: "not now" });

    await show({ id: "a2", kind: "authorization", prompt: "Sign in", url: "https://login.example/?a=<x>" });
    assert.equal(await dialog.locator(".tnx-url").textContent(), "https://login.example/?a=<x>");
    await dialog.getByRole("button", { name: "Approve" }).click();
    assert.deepEqual(await page.evaluate(() => window.__pending), { id: "a2", ok: true });
  });
});

test("the wasm still loads when the server sends the wrong MIME type", T, async () => {
  await withPage(async (page, problems) => {
    let served = false;
    await page.route("**/toolnexus*.wasm", async (route) => { // the demo loads toolnexus-tools.wasm
      const res = await route.fetch();
      served = true;
      await route.fulfill({ status: 200, body: await res.body(), headers: { "content-type": "application/octet-stream" } });
    });
    await openDemo(page);
    assert.ok(served);
    await send(page, "add 2 and 3");
    await idle(page);
    assert.match(await log(page).textContent(), /2 \+ 3 = 5/);
    assert.deepEqual(problems.filter((p) => !/MIME/i.test(p)), []);
  });
});

// scriptedFetchSource is page-side code: an OpenAI-format fetch that plays turns in order.
const SCRIPTED = `
  window.scripted = (turns) => {
    let i = 0;
    window.seen = [];
    return async (url, init) => {
      const body = JSON.parse(typeof init.body === "string" ? init.body : new TextDecoder().decode(init.body));
      window.seen.push(body);
      const t = turns[i++];
      if (!t) return new Response("{}", { status: 500 });
      const message = t.call
        ? { role: "assistant", content: null, tool_calls: [{ id: "c" + i, type: "function", function: { name: t.call[0], arguments: JSON.stringify(t.call[1]) } }] }
        : { role: "assistant", content: t.text };
      return new Response(JSON.stringify({ choices: [{ index: 0, message, finish_reason: t.call ? "tool_calls" : "stop" }],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } }), { headers: { "content-type": "application/json" } });
    };
  };`;

test("dialog shows a hostile argument literally and runs no script", T, async () => {
  await withPage(async (page, problems) => {
    await openDemo(page);
    await page.addScriptTag({ content: SCRIPTED });
    const hostile = `<img src=x onerror=alert(1)><img src=x onerror="window.__pwned=1">`;
    const done = page.evaluate(async (hostile) => {
      const { load, defineTool, approvalDialog } = await import("./toolnexus.mjs");
      const tnx = await load();
      const tk = await tnx.createToolkit({ tools: [defineTool({ name: "note", description: "save a note", needsApproval: true,
        inputSchema: { type: "object", properties: { text: { type: "string" } } }, run: ({ text }) => "saved " + text.length })] });
      const client = await tnx.createClient({ baseURL: "https://scripted.invalid/v1", model: "m", waitFor: approvalDialog(),
        fetch: window.scripted([{ call: ["note", { text: hostile }] }, { text: "ok" }]) });
      return client.run("save it", tk);
    }, hostile);
    done.catch(() => {}); // awaited below; if an assertion fails first, the closing page rejects it
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    assert.ok((await dialog.locator("pre").textContent()).includes(JSON.stringify(hostile).slice(1, -1)), "shown as text");
    assert.equal(await page.locator("dialog img").count(), 0, "no element was created from the argument");
    await dialog.getByRole("button", { name: "Decline" }).click();
    const result = await done;
    assert.equal(result.status, "done");
    assert.equal(await page.evaluate(() => window.__pwned), undefined);
    assert.deepEqual(problems.filter((p) => p.startsWith("js dialog")), []);
  });
});

test("a JS tool that throws: the error result is shown and the run continues", T, async () => {
  await withPage(async (page, problems) => {
    await openDemo(page);
    await send(page, "divide 1 by 0");
    await idle(page);
    const errors = await page.locator("#transcript .entry.is-error").allTextContents();
    assert.ok(errors.some((e) => e.includes("cannot divide by zero")), `error entry shown: ${errors}`);
    assert.match(await log(page).textContent(), /I could not divide 1 by 0: .*cannot divide by zero/);
    await send(page, "divide 6 by 3");
    await idle(page);
    assert.match(await log(page).textContent(), /6 \/ 3 = 2/);
    assert.deepEqual(problems, []);
  });
});

test("OpenAI-compatible endpoint: the key goes only to the model, core-side tool errors are shown", T, async () => {
  await withPage(async (page, problems) => {
    await openDemo(page);
    const secret = "sk-test-endpoint-456";
    await page.getByRole("radio", { name: /OpenAI-compatible/ }).check();
    await page.getByLabel("Base URL").fill(new URL("/fake/v1", server.url).href);
    await page.getByRole("textbox", { name: "Model", exact: true }).fill("fake-model-1");
    await page.getByLabel("API key").fill(secret);
    const seen = [];
    await page.route("**/fake/v1/chat/completions", (route) => {
      const body = JSON.parse(route.request().postData());
      seen.push({ auth: route.request().headers().authorization, body });
      const message = seen.length === 1
        ? { role: "assistant", content: null, tool_calls: [{ id: "x1", type: "function", function: { name: "launch_rockets", arguments: "{}" } }] }
        : { role: "assistant", content: "I cannot launch rockets." };
      return route.fulfill({ status: 200, contentType: "application/json",
        body: JSON.stringify({ choices: [{ index: 0, message, finish_reason: "stop" }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } }) });
    });
    await send(page, "launch the rockets");
    await idle(page);
    assert.equal(seen.length, 2);
    assert.ok(seen.every((r) => r.auth === `Bearer ${secret}` && r.body.model === "fake-model-1"));
    const errors = await page.locator("#transcript .entry.is-error").allTextContents();
    assert.ok(errors.some((e) => e.includes("launch_rockets")), `unknown tool shown as an error: ${errors}`);
    assert.match(await log(page).textContent(), /I cannot launch rockets\./);
    assert.equal(await page.evaluate(() => localStorage.length + sessionStorage.length), 0, "nothing stored");
    assert.doesNotMatch(await page.content(), new RegExp(secret), "the key is not in the DOM as text");
    assert.deepEqual(problems, []);
  });
});

test("after Go-side errors (HTTP 500, rejected fetch) the page still runs", T, async () => {
  await withPage(async (page, problems) => {
    await openDemo(page);
    const secret = "sk-test-DO-NOT-SHOW-123";
    await page.getByRole("radio", { name: /OpenAI-compatible/ }).check();
    await page.getByLabel("Base URL").fill(new URL("/broken/v1", server.url).href);
    await page.getByLabel("API key").fill(secret);

    // The first message always gets a 500, the second a refused connection
    // (decided per request, so core retries see the same failure again).
    let calls = 0;
    await page.route("**/broken/v1/chat/completions", (route) => {
      calls++;
      return (route.request().postData() ?? "").includes("hello again")
        ? route.abort("connectionrefused")
        : route.fulfill({ status: 500, contentType: "application/json", body: '{"error":{"message":"model exploded"}}' });
    });
    await send(page, "hello");
    await idle(page);
    await send(page, "hello again");
    await idle(page);
    assert.ok(calls >= 2, "both runs reached the model");
    const errs = await page.locator("#transcript .entry.is-error").allTextContents();
    assert.ok(errs.length >= 2, `two errors shown: ${errs}`);
    assert.match(errs[0], /500|model exploded/);
    assert.match(errs[1], /fetch|connection/i);
    assert.doesNotMatch(await log(page).textContent(), new RegExp(secret), "the key is never shown");

    await page.getByRole("radio", { name: /Built-in demo/ }).check();
    await send(page, "what is 2+3");
    await idle(page);
    assert.match(await log(page).textContent(), /2 \+ 3 = 5/);
    // The failed requests log as network errors in the console; nothing else may.
    assert.deepEqual(problems.filter((p) => !/Failed to load resource|ERR_CONNECTION_REFUSED|status of 500/.test(p)), []);
  });
});

test("an endpoint with empty fields is refused before anything is sent, and the status says why", T, async () => {
  await withPage(async (page, problems) => {
    await openDemo(page);
    const requests = [];
    page.on("request", (r) => { if (!r.url().startsWith(server.url)) requests.push(r.url()); });
    await page.getByRole("radio", { name: /OpenAI-compatible/ }).check();
    const status = page.getByRole("status");
    // The defaults name api.openai.com, which cannot answer without a key.
    await send(page, "hello");
    assert.equal(await status.textContent(), "api.openai.com needs an API key: enter yours, or pick the built-in demo model (no key).");
    assert.equal(await page.evaluate(() => document.activeElement?.id), "api-key");
    await page.getByLabel("Base URL").fill("");
    await send(page, "hello");
    assert.match(await status.textContent(), /^Enter the endpoint's base URL first/);
    assert.equal(await page.getByLabel("Base URL").getAttribute("aria-invalid"), "true");
    await page.getByLabel("Base URL").fill("http://127.0.0.1:9/v1");
    await page.getByRole("textbox", { name: "Model", exact: true }).fill("");
    await send(page, "hello");
    assert.match(await status.textContent(), /^Enter a model name first/);
    assert.equal(await page.getByRole("textbox", { name: "Message" }).inputValue(), "hello", "the draft stays");
    assert.equal(await page.locator("#transcript .entry").count(), 0, "nothing was sent");
    assert.deepEqual(requests, []);
    assert.deepEqual(problems, []);
  });
});

test("a conversation in the page: follow-ups send the kept transcript, an async tool answers through the host", T, async () => {
  await withPage(async (page, problems) => {
    await openDemo(page);
    await page.addScriptTag({ content: SCRIPTED });
    const out = await page.evaluate(async () => {
      const { load, defineTool } = await import("./toolnexus.mjs");
      const tnx = await load();
      const tk = await tnx.createToolkit({ tools: [defineTool({ name: "later", description: "answers after a tick",
        inputSchema: { type: "object", properties: { n: { type: "number" } } },
        run: async ({ n }) => { await new Promise((r) => setTimeout(r, 5)); return { output: `n=${n}`, isError: false }; } })] });
      const client = await tnx.createClient({ baseURL: "https://scripted.invalid/v1", model: "m",
        fetch: window.scripted([{ call: ["later", { n: 1 }] }, { text: "one" }, { call: ["later", { n: 2 }] }, { text: "two" }]) });
      const conv = client.conversation({ history: [{ role: "user", content: "before" }, { role: "assistant", content: "ok" }] });
      const first = await conv.run("first", tk);
      const second = await conv.run("second", tk);
      return { first, second, messages: await conv.messages(), lastSent: window.seen.at(-1).messages.map((m) => m.content ?? "") };
    });
    assert.equal(out.first.text, "one");
    assert.equal(out.second.text, "two");
    assert.equal(out.second.messages, undefined);
    assert.deepEqual(out.lastSent, ["before", "ok", "first", "", "n=1", "one", "second", "", "n=2"]);
    assert.equal(out.messages.length, 10);
    assert.deepEqual(problems, []);
  });
});

// Issue 26: on a phone-sized screen (375 px) and a desktop one, the message
// box shows its whole placeholder, Send sits beside it, the examples are in
// view below, and the approval dialog keeps a margin from both edges.
for (const width of [375, 1280]) {
  test(`the demo at ${width} px: the whole placeholder shows; the dialog keeps a margin`, T, async () => {
    await withPage(async (page, problems) => {
      await page.setViewportSize({ width, height: 800 });
      await openDemo(page);
      const box = await page.evaluate(() => {
        const m = document.getElementById("message");
        const cs = getComputedStyle(m);
        const ctx = document.createElement("canvas").getContext("2d");
        ctx.font = cs.font;
        const r = (el) => el.getBoundingClientRect();
        return {
          placeholder: ctx.measureText(m.placeholder).width,
          room: m.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight),
          sameRow: Math.round(r(m).top) === Math.round(r(document.getElementById("send")).top),
          hint: document.getElementById("hint").textContent,
          hintFits: document.getElementById("hint").scrollWidth <= document.getElementById("hint").clientWidth,
          scrolls: document.documentElement.scrollWidth > innerWidth,
        };
      });
      assert.ok(box.placeholder <= box.room, `placeholder ${Math.round(box.placeholder)} px in ${Math.round(box.room)} px`);
      assert.ok(box.sameRow, "Send beside the message box");
      assert.match(box.hint, /refund order 42/);
      assert.ok(box.hintFits && !box.scrolls, "nothing runs past the screen");
      await send(page, "refund order 42");
      await dialogReady(page);
      const d = await page.getByRole("dialog").boundingBox();
      assert.ok(d.x >= 12 && d.x + d.width <= width - 12, `dialog ${Math.round(d.x)}…${Math.round(d.x + d.width)} of ${width}`);
      await page.getByRole("dialog").getByRole("button", { name: "Decline" }).click();
      await idle(page);
      assert.deepEqual(problems, []);
    });
  });
}

// Issue 26: <toolnexus-chat> on a 375 px screen shows its whole placeholder too.
test("the element at 375 px: the whole placeholder shows", T, async () => {
  await withPage(async (page, problems) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto(`${server.url}examples/index.html`);
    await page.waitForSelector("toolnexus-chat[ready]");
    const box = await page.evaluate(() => {
      const m = document.querySelector("toolnexus-chat").shadowRoot.querySelector("input");
      const cs = getComputedStyle(m);
      const ctx = document.createElement("canvas").getContext("2d");
      ctx.font = cs.font;
      return { text: m.placeholder, width: ctx.measureText(m.placeholder).width,
        room: m.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) };
    });
    assert.match(box.text, /refund order 42/);
    assert.ok(box.width <= box.room, `"${box.text}": ${Math.round(box.width)} px in ${Math.round(box.room)} px`);
    assert.deepEqual(problems, []);
  });
});
