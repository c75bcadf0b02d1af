// csp-styles.test.mjs — the approval dialog and <toolnexus-chat> are styled
// under a Content-Security-Policy whose style-src has no 'unsafe-inline'.
// Their CSS is adopted as constructable stylesheets (document.adoptedStyleSheets,
// a shadow root's adoptedStyleSheets), which style-src does not govern; a
// <style> element would be refused (a securitypolicyviolation, a console error)
// and leave them unstyled.
//
//   ./build.sh build && cd tests && timeout 300 node --test --test-force-exit csp-styles.test.mjs
//
// The pages come from a copy of dist/web on 127.0.0.1 (chromium.mjs); every
// HTML document is answered with the CSP header below. Also checked: a sheet is
// adopted once however often the dialog opens, however many elements a page
// has and however often the module is loaded; sheets another script adopted
// stay; and without constructable stylesheets the <style> fallback is used once.

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { startSite, withPage as withFreshPage } from "./chromium.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));
const WEB = join(process.env.TOOLNEXUS_DIST ?? join(here, "..", "dist"), "web");
const T = { timeout: 90_000 };

// No 'unsafe-inline' for styles. img-src allows the pages' data: favicon.
const CSP = "default-src 'self'; style-src 'self'; script-src 'self' 'wasm-unsafe-eval'; img-src 'self' data:; object-src 'none'; base-uri 'none'";

// What our CSS sets, in the light colour scheme, against the browser's defaults.
const DIALOG = { borderTopLeftRadius: "12px", paddingLeft: "24px", paddingTop: "20px" };
const APPROVE_BG = "rgb(31, 111, 235)";  // .tnx-approval button.tnx-approve, --tnx-accent #1f6feb
const CHAT = { borderTopLeftRadius: "12px", height: "420px", display: "flex" };
const SEND_BG = "rgb(9, 105, 218)";      // button, --_accent #0969da

let site;

before(async () => {
  assert.ok(existsSync(join(WEB, "toolnexus.wasm")), `no build in ${WEB}: run ./build.sh first`);
  site = await startSite(WEB, { scratch: true });
  // Pages load only same-origin module scripts and stylesheets: nothing inline.
  const head = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>t</title><link rel="icon" href="data:,">`;
  await writeFile(join(site.root, "csp-blank.html"), `${head}</head><body></body></html>`);
  await writeFile(join(site.root, "csp-chat.html"), `${head}
<script type="module" src="./toolnexus-chat.mjs"></script></head>
<body><toolnexus-chat id="a" demo></toolnexus-chat><toolnexus-chat id="b" demo></toolnexus-chat></body></html>`);
});

after(async () => {
  await site?.close();
});

// withPage: a fresh light-scheme context (chromium.mjs) whose HTML documents
// carry the CSP header (csp: false serves them without one) and which records
// CSP violations in window.__csp. check() asserts there were none, and no
// console errors (Chromium logs a refused <style> as one).
const withPage = (fn, { csp = true, init } = {}) => withFreshPage(site.browser, async (page, problems) => {
  if (csp) {
    await page.route(/\.html(\?.*)?$/, async (route) => {
      const res = await route.fetch();
      await route.fulfill({ response: res, headers: { ...res.headers(), "content-security-policy": CSP } });
    });
  }
  if (init) await page.addInitScript(init);
  return fn(page, async () => {
    await page.waitForTimeout(100);
    assert.deepEqual(await page.evaluate(() => window.__csp), [], "CSP violations");
    assert.deepEqual(problems, [], "console errors, page errors or JS dialogs");
  });
}, {
  contextOptions: { colorScheme: "light" },
  init: [() => {
    window.__csp = [];
    document.addEventListener("securitypolicyviolation", (e) => {
      window.__csp.push({ directive: e.violatedDirective, blocked: e.blockedURI, sample: e.sample });
    });
  }],
});

const url = (path) => new URL(path, site.server.url).href;

// styleOf reads the computed style properties of the first element matching
// selector, looked up in the shadow root of host when it is given.
function styleOf(page, selector, props, host = null) {
  return page.evaluate(({ selector, props, host }) => {
    const root = host ? document.querySelector(host).shadowRoot : document;
    const node = root.querySelector(selector);
    if (!node) throw new Error(`no ${selector}`);
    const cs = getComputedStyle(node);
    return Object.fromEntries(props.map((p) => [p, cs[p]]));
  }, { selector, props, host });
}

// sheetsIn counts what styles a root (the document, or host's shadow root):
// adopted sheets with our dialog / element rules, all adopted sheets, and <style> elements.
function sheetsIn(page, host = null) {
  return page.evaluate((host) => {
    const root = host ? document.querySelector(host).shadowRoot : document;
    const has = (sheet, text) => [...sheet.cssRules].some((r) => r.cssText.includes(text));
    const adopted = root.adoptedStyleSheets ?? [];
    return {
      dialog: adopted.filter((s) => has(s, ".tnx-approval")).length,
      chat: adopted.filter((s) => has(s, ".chat")).length,
      adopted: adopted.length,
      styleElements: root.querySelectorAll("style").length,
    };
  }, host);
}

async function assertDialogStyled(page) {
  assert.deepEqual(await styleOf(page, "dialog.tnx-approval", Object.keys(DIALOG)), DIALOG, "the dialog has our CSS");
  assert.deepEqual(await styleOf(page, "dialog.tnx-approval .tnx-buttons", ["display"]), { display: "flex" });
  assert.deepEqual(await styleOf(page, "dialog.tnx-approval button.tnx-approve", ["backgroundColor"]), { backgroundColor: APPROVE_BG });
}

test("the policy is in force: an inline <style> is refused", T, async () => {
  await withPage(async (page) => {
    await page.goto(url("csp-blank.html"));
    const refused = await page.evaluate(async () => {
      const style = document.createElement("style");
      style.textContent = "body { margin: 7px; }";
      document.head.append(style);
      await new Promise((ok) => setTimeout(ok, 50));
      return { margin: getComputedStyle(document.body).marginTop, csp: window.__csp.map((v) => v.directive) };
    });
    assert.equal(refused.margin, "8px", "the <style> did not apply");
    assert.ok(refused.csp.some((d) => d.startsWith("style-src")), `a style-src violation: ${JSON.stringify(refused.csp)}`);
  });
});

test("demo page under style-src 'self': the approval dialog is styled, its sheet adopted once, no CSP violation", T, async () => {
  await withPage(async (page, check) => {
    await page.goto(url("index.html"));
    await page.waitForSelector("html[data-ready='1']", { timeout: 30_000 });
    // demo.css is a same-origin stylesheet: style-src 'self' allows it.
    assert.equal(await page.evaluate(() => getComputedStyle(document.body).fontFamily.length > 0), true);
    const dialog = page.getByRole("dialog");
    for (const [i, answer] of ["Decline", "Approve", "Decline"].entries()) {
      await page.getByRole("textbox", { name: "Message" }).fill(`refund order ${40 + i}`);
      await page.getByRole("button", { name: "Send" }).click();
      await dialog.waitFor();
      await assertDialogStyled(page);
      await dialog.getByRole("button", { name: answer }).click();
      await page.waitForFunction(() => !document.getElementById("send").disabled && !document.querySelector("dialog[open]"), null, { timeout: 30_000 });
    }
    assert.deepEqual(await sheetsIn(page), { dialog: 1, chat: 0, adopted: 1, styleElements: 0 },
      "three dialogs adopted one sheet, and no <style> element");
    await check();
  });
});

test("two <toolnexus-chat demo> under style-src 'self': both are styled, each root adopts the sheet once, the dialog too", T, async () => {
  await withPage(async (page, check) => {
    await page.goto(url("csp-chat.html"));
    await page.waitForSelector("toolnexus-chat#a[ready]", { timeout: 30_000 });
    await page.waitForSelector("toolnexus-chat#b[ready]", { timeout: 30_000 });
    for (const host of ["#a", "#b"]) {
      assert.equal(await page.evaluate((h) => getComputedStyle(document.querySelector(h)).display, host), "block", ":host { display: block }");
      assert.deepEqual(await styleOf(page, ".chat", Object.keys(CHAT), host), CHAT, `${host}: the container has our CSS`);
      assert.deepEqual(await styleOf(page, "button", ["backgroundColor"], host), { backgroundColor: SEND_BG });
      assert.deepEqual(await styleOf(page, ".sr-only", ["position", "width"], host), { position: "absolute", width: "1px" });
      assert.deepEqual(await sheetsIn(page, host), { dialog: 0, chat: 1, adopted: 1, styleElements: 0 }, `${host}: one adopted sheet`);
    }
    assert.equal(await page.evaluate(() => document.querySelector("#a").shadowRoot.adoptedStyleSheets[0] === document.querySelector("#b").shadowRoot.adoptedStyleSheets[0]),
      true, "the elements of one page share one sheet");

    // Re-attaching an element (connectedCallback again) does not adopt the sheet again.
    await page.evaluate(() => { const a = document.querySelector("#a"); a.remove(); document.body.prepend(a); });
    await page.waitForSelector("toolnexus-chat#a[ready]", { timeout: 30_000 });
    assert.deepEqual(await sheetsIn(page, "#a"), { dialog: 0, chat: 1, adopted: 1, styleElements: 0 });

    // The element's approval dialog, opened from each element.
    const dialog = page.getByRole("dialog");
    for (const host of ["#a", "#b"]) {
      const el = page.locator(`toolnexus-chat${host}`);
      await el.getByRole("textbox", { name: "Message" }).fill("refund order 42");
      await el.getByRole("button", { name: "Send" }).click();
      await dialog.waitFor();
      await assertDialogStyled(page);
      await dialog.getByRole("button", { name: "Decline" }).click();
      await page.waitForFunction((h) => !document.querySelector(h).hasAttribute("busy") && !document.querySelector("dialog[open]"), host, { timeout: 30_000 });
    }
    assert.deepEqual(await sheetsIn(page), { dialog: 1, chat: 0, adopted: 1, styleElements: 0 }, "the document adopted the dialog's sheet once");
    await check();
  });
});

test("a sheet another script adopted stays; the module loaded twice adopts the dialog's sheet once", T, async () => {
  await withPage(async (page, check) => {
    await page.goto(url("csp-blank.html"));
    await page.evaluate(() => {
      const mine = new CSSStyleSheet();
      mine.replaceSync("body { margin: 7px; }");
      document.adoptedStyleSheets = [mine];
      window.__mine = mine;
    });
    const dialog = page.getByRole("dialog");
    for (const [i, spec] of ["/approval-dialog.mjs", "/approval-dialog.mjs?again", "/approval-dialog.mjs", "/approval-dialog.mjs?again"].entries()) {
      await page.evaluate(async ({ spec, id }) => {
        const { approvalDialog } = await import(spec);
        window.__answer = approvalDialog()({ id, kind: "approval", data: { tool: "refund", args: { order: "42" } } });
      }, { spec, id: `r${i}` });
      await dialog.waitFor();
      await assertDialogStyled(page);
      await dialog.getByRole("button", { name: "Approve" }).click();
      assert.deepEqual(await page.evaluate(() => window.__answer), { id: `r${i}`, ok: true });
    }
    assert.equal(await page.evaluate(() => document.adoptedStyleSheets[0] === window.__mine), true, "the page's own sheet is still adopted, first");
    assert.equal(await page.evaluate(() => getComputedStyle(document.body).marginTop), "7px");
    assert.deepEqual(await sheetsIn(page), { dialog: 1, chat: 0, adopted: 2, styleElements: 0 });

    // A dialog whose parent is in a shadow root: that root adopts the sheet (the document's does not reach in).
    await page.evaluate(async () => {
      const host = document.createElement("div");
      host.id = "host";
      document.body.append(host);
      const parent = document.createElement("div");
      host.attachShadow({ mode: "open" }).append(parent);
      const { approvalDialog } = await import("/approval-dialog.mjs");
      window.__answer = approvalDialog({ parent })({ id: "s1", kind: "approval", data: { tool: "refund", args: {} } });
    });
    await page.waitForFunction(() => document.querySelector("#host").shadowRoot.querySelector("dialog[open]"));
    assert.deepEqual(await styleOf(page, "dialog.tnx-approval", Object.keys(DIALOG), "#host"), DIALOG);
    assert.deepEqual(await sheetsIn(page, "#host"), { dialog: 1, chat: 0, adopted: 1, styleElements: 0 });
    await page.locator("#host").getByRole("button", { name: "Approve" }).click();
    assert.deepEqual(await page.evaluate(() => window.__answer), { id: "s1", ok: true });
    await check();
  });
});

test("without constructable stylesheets (no CSP): one <style> element per root, and everything is styled", T, async () => {
  await withPage(async (page, check) => {
    await page.goto(url("csp-chat.html"));
    await page.waitForSelector("toolnexus-chat#b[ready]", { timeout: 30_000 });
    for (const host of ["#a", "#b"]) {
      assert.deepEqual(await styleOf(page, ".chat", Object.keys(CHAT), host), CHAT);
      assert.deepEqual(await sheetsIn(page, host), { dialog: 0, chat: 0, adopted: 0, styleElements: 1 });
    }
    const dialog = page.getByRole("dialog");
    for (let i = 0; i < 2; i++) {
      await page.evaluate(async (id) => {
        const { approvalDialog } = await import(id % 2 ? "/approval-dialog.mjs?again" : "/approval-dialog.mjs");
        window.__answer = approvalDialog()({ id: `f${id}`, kind: "approval", data: { tool: "refund", args: {} } });
      }, i);
      await dialog.waitFor();
      await assertDialogStyled(page);
      await dialog.getByRole("button", { name: "Decline" }).click();
    }
    assert.deepEqual(await sheetsIn(page), { dialog: 0, chat: 0, adopted: 0, styleElements: 1 });
    await check();
  }, {
    csp: false,
    init: () => {
      delete Document.prototype.adoptedStyleSheets;
      delete ShadowRoot.prototype.adoptedStyleSheets;
    },
  });
});
