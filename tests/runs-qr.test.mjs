// runs-qr.test.mjs — the QR code of a durable run's approval link (issue 24):
// <toolnexus-chat endpoint> shows it beside the "open this link on another
// device" note while the run waits, under a page CSP without 'unsafe-inline'
// styles, and it encodes exactly the run's approveURL. The codes are read
// back from Chromium's screenshots of them by jsQR (npm jsqr, a decoder
// independent of lean-qr, which draws them), never by parsing our SVG. Run
// after ./build.sh build and ./build.sh worker:
//
//   cd tests && timeout 300 node --test --test-force-exit runs-qr.test.mjs

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import jsQR from "jsqr";
import { startSite, withPage as withFreshPage } from "./chromium.mjs";
import { startWorkerMock } from "./worker-mock.mjs";
import { dist, startWorker } from "./worker-harness.mjs";

const T = { timeout: 120_000 };
const LABEL = "QR code of the approval link";

let mock, site, worker, csp;

before(async () => {
  mock = await startWorkerMock();
  site = await startSite(join(dist, "web"), { scratch: true });
  worker = await startWorker({
    LLM_BASE_URL: `${mock.url}/v1`, LLM_MODEL: "mock-model", LLM_API_KEY: "sk-qr-provider-key",
    STATE_SECRET: "qr-state-secret-0123456789abcdef", ALLOWED_ORIGINS: site.server.url.replace(/\/$/, ""),
  });
  // What csp-styles.test.mjs holds the element to (no inline styles, scripts
  // only from the page's origin), and the Worker as the one other origin to talk to.
  csp = `default-src 'self'; connect-src 'self' ${new URL(worker.url).origin}; style-src 'self'; ` +
    "script-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'";
  // In a <meta> element, not a header: a document Playwright fulfils counts
  // as public to Chromium, which then refuses its requests to the Worker on
  // 127.0.0.1 (Local Network Access).
  const head = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title><link rel="icon" href="data:,">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<link rel="stylesheet" href="./runs-qr.css">`;
  // The element in a narrow column on the left, clear of the centred dialog.
  await writeFile(join(site.root, "runs-qr.css"), `body { margin: 16px; } toolnexus-chat { width: 330px; --toolnexus-height: 640px; }
@media (prefers-color-scheme: dark) { body { background: #0d1117; } }\n`);
  await writeFile(join(site.root, "runs-qr.html"), `${head}
<script type="module" src="./toolnexus-chat.mjs"></script></head>
<body><toolnexus-chat id="remote" endpoint="${worker.url}"></toolnexus-chat></body></html>`);
  await writeFile(join(site.root, "qr-blank.html"), `${head}</head><body></body></html>`);
});

after(async () => {
  await worker?.dispose().catch(() => {});
  await site?.close();
  await mock?.close();
});

// withPage: a fresh context that records CSP violations; check() asserts
// there were none and no console or page errors.
const withPage = (fn, contextOptions = {}) => withFreshPage(site.browser, async (page, problems) => {
  return fn(page, async () => {
    assert.deepEqual(await page.evaluate(() => window.__csp), [], "CSP violations");
    assert.deepEqual(problems, [], "console errors, page errors or JS dialogs");
  });
}, {
  contextOptions: { viewport: { width: 1280, height: 800 }, ...contextOptions },
  init: [() => {
    window.__csp = [];
    document.addEventListener("securitypolicyviolation", (e) => window.__csp.push({ directive: e.violatedDirective, blocked: e.blockedURI }));
  }],
});

// scan reads the QR code in a screenshot of what locator shows on screen
// (anything over it included): Chromium decodes the PNG to RGBA pixels, jsQR
// finds and decodes the code. Returns the decoded text, or null.
async function scan(page, locator) {
  const png = await locator.screenshot();
  const { width, height, rgba } = await page.evaluate(async (b64) => {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const bitmap = await createImageBitmap(new Blob([bytes], { type: "image/png" }));
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const ctx = canvas.getContext("2d");
    ctx.drawImage(bitmap, 0, 0);
    const { data } = ctx.getImageData(0, 0, bitmap.width, bitmap.height);
    let s = "";
    for (let i = 0; i < data.length; i += 0x8000) s += String.fromCharCode(...data.subarray(i, i + 0x8000));
    return { width: bitmap.width, height: bitmap.height, rgba: btoa(s) };
  }, png.toString("base64"));
  const code = jsQR(new Uint8ClampedArray(Buffer.from(rgba, "base64")), width, height);
  return code ? code.data : null;
}

test("the waiting note shows the link's QR code, it reads as exactly approveURL, and a phone that scans it approves", T, async () => {
  await withPage(async (page, check) => {
    const started = page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname === "/v1/runs");
    await page.goto(site.server.url + "runs-qr.html");
    const el = page.locator("#remote");
    await page.waitForSelector("#remote[ready]");
    await el.getByRole("textbox", { name: "Message" }).fill("refund order 42");
    await el.getByRole("button", { name: "Send" }).click();
    const { id } = await (await started).json();
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    const note = el.locator(".entry.note");
    const qr = note.getByRole("img", { name: LABEL });
    await qr.waitFor();

    const st = await worker.call("GET", `/v1/runs/${id}`);
    assert.equal(st.json.status, "pending", st.text);
    const { approveURL } = st.json.pending;
    assert.match(approveURL, /^https?:\/\/\S+\/approve\?/);
    assert.match(await note.textContent(), /Waiting for approval — open this link on another device/);
    // Issue 33: the link is a link (a new tab; no Referer), not plain text.
    const link = note.getByRole("link", { name: approveURL });
    assert.equal(await link.getAttribute("href"), approveURL);
    assert.equal(await link.getAttribute("target"), "_blank");
    assert.match(await link.getAttribute("rel"), /noreferrer/);
    // Big enough for a phone's camera, square, sharp (whole pixels per module).
    const box = await qr.boundingBox();
    assert.ok(box.width >= 160 && box.width === box.height, JSON.stringify(box));
    assert.equal(await qr.evaluate((svg) => svg.width.baseVal.value % svg.viewBox.baseVal.width), 0);
    // What a camera sees on the page, the modal dialog's backdrop over it.
    assert.equal(await scan(page, qr), approveURL);

    // The phone opens what it read; this page's dialog closes, the code goes
    // (the link is used) and the run goes on here.
    await withFreshPage(site.browser, async (phone) => {
      await phone.goto(new URL(new URL(approveURL).pathname + new URL(approveURL).search, worker.url).href);
      await phone.locator("dialog.tnx-approval .tnx-approve").click();
      await phone.locator("#status[data-kind=done]").waitFor();
    });
    await dialog.waitFor({ state: "detached" });
    await qr.waitFor({ state: "detached" });
    await page.waitForFunction(() => !document.querySelector("#remote").hasAttribute("busy"), null, { timeout: 30_000 });
    assert.match(await el.getByRole("log").textContent(), /done: refunded order 42/);
    // Issue 33: the call's label is the decision the run recorded (the
    // dialog here closed as "aborted"), and where it was given; the note is
    // marked answered and its used link is no longer a link.
    await callLabelIs(el, "Tool call · approved on another device");
    await noteAnswered(note, /^Approved on another device\. The approval link is used: /, approveURL);
    await check();
  }, { colorScheme: "dark" });
});

// callLabelIs waits until the transcript's one tool call line reads label
// (the recorded decision arrives after the run went on).
async function callLabelIs(el, label) {
  await el.locator(".entry.tool-call .who", { hasText: label }).waitFor();
  assert.deepEqual(await el.locator(".entry.tool-call .who").allTextContents(), [label]);
}

// noteAnswered checks the waiting note became an answered one: its text,
// the used link kept as text but not as a link, no QR code, no button.
async function noteAnswered(note, text, approveURL) {
  await note.locator(".who", { hasText: "Note · answered" }).waitFor();
  const body = await note.locator(".text").textContent();
  assert.match(body, text);
  assert.ok(body.endsWith(approveURL), body);
  assert.equal(await note.getByRole("link").count(), 0, "a used link is not a link");
  assert.equal(await note.getByRole("img").count(), 0);
  assert.equal(await note.getByRole("button").count(), 0);
}

// startRun sends the refund and returns the run's id and approveURL once
// the element shows its dialog and the link's QR code.
async function startRun(page, el) {
  const started = page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname === "/v1/runs");
  await el.getByRole("textbox", { name: "Message" }).fill("refund order 42");
  await el.getByRole("button", { name: "Send" }).click();
  const { id } = await (await started).json();
  await page.getByRole("dialog").waitFor();
  await el.getByRole("img", { name: LABEL }).waitFor();
  const st = await worker.call("GET", `/v1/runs/${id}`);
  assert.equal(st.json.status, "pending", st.text);
  return { id, approveURL: st.json.pending.approveURL };
}

// onPhone answers approveURL on the Worker's approval page in a fresh context.
async function onPhone(approveURL, answer) {
  await withFreshPage(site.browser, async (phone) => {
    await phone.goto(new URL(new URL(approveURL).pathname + new URL(approveURL).search, worker.url).href);
    const dialog = phone.locator("dialog.tnx-approval");
    if (answer.reason) await dialog.getByRole("textbox", { name: "Reason" }).fill(answer.reason);
    await dialog.getByRole("button", { name: answer.approve ? "Approve" : "Decline" }).click();
    await phone.locator("#status[data-kind=done]").waitFor();
  });
}

const idle = (page) => page.waitForFunction(() => !document.querySelector("#remote").hasAttribute("busy"), null, { timeout: 30_000 });

test("answer on another device: the dialog steps aside, the QR code is in plain view, the dialog comes back and approves", T, async () => {
  await withPage(async (page, check) => {
    await page.goto(site.server.url + "runs-qr.html");
    const el = page.locator("#remote");
    await page.waitForSelector("#remote[ready]");
    const { id, approveURL } = await startRun(page, el);
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("button", { name: "Answer on another device" }).click();
    await dialog.waitFor({ state: "detached" });
    // Stepping aside answers nothing: the run still waits.
    assert.equal((await worker.call("GET", `/v1/runs/${id}`)).json.status, "pending");
    const note = el.locator(".entry.note");
    const qr = note.getByRole("img", { name: LABEL });
    // Nothing covers the code: the topmost element at its centre is the code itself.
    const box = await qr.boundingBox();
    assert.ok(await page.evaluate(({ x, y }) => {
      let hit = document.elementFromPoint(x, y);
      while (hit?.shadowRoot) { const inner = hit.shadowRoot.elementFromPoint(x, y); if (!inner || inner === hit) break; hit = inner; }
      return hit?.closest?.("svg")?.getAttribute("aria-label");
    }, { x: box.x + box.width / 2, y: box.y + box.height / 2 }) === LABEL, "something covers the QR code");
    assert.equal(await scan(page, qr), approveURL);
    assert.match(await el.getByRole("status").textContent(), /another device/);
    // The dialog comes back, and this page's answer is the one recorded.
    await note.getByRole("button", { name: "Answer here" }).click();
    await dialog.getByRole("button", { name: "Approve" }).click();
    await idle(page);
    assert.match(await el.getByRole("log").textContent(), /done: refunded order 42/);
    await callLabelIs(el, "Tool call · approved");
    await noteAnswered(note, /^Approved here\. The approval link is used: /, approveURL);
    await check();
  }, { viewport: { width: 900, height: 700 } });
});

test("declined on another device while the dialog is open: the line says so, with the reason", T, async () => {
  await withPage(async (page, check) => {
    await page.goto(site.server.url + "runs-qr.html");
    const el = page.locator("#remote");
    await page.waitForSelector("#remote[ready]");
    const { approveURL } = await startRun(page, el);
    await onPhone(approveURL, { approve: false, reason: "not this order" });
    await page.getByRole("dialog").waitFor({ state: "detached" });
    await idle(page);
    await callLabelIs(el, "Tool call · declined on another device");
    assert.match(await el.getByRole("log").textContent(), /Declinednot this order/);
    await noteAnswered(el.locator(".entry.note"), /^Declined on another device\. /, approveURL);
    await check();
  });
});

test("answered in this page's dialog: the QR code goes with it", T, async () => {
  await withPage(async (page, check) => {
    await page.goto(site.server.url + "runs-qr.html");
    const el = page.locator("#remote");
    await page.waitForSelector("#remote[ready]");
    await el.getByRole("textbox", { name: "Message" }).fill("refund order 42");
    await el.getByRole("button", { name: "Send" }).click();
    const qr = el.getByRole("img", { name: LABEL });
    await qr.waitFor();
    await page.getByRole("dialog").getByRole("button", { name: "Decline" }).click();
    await qr.waitFor({ state: "detached" });
    await page.waitForFunction(() => !document.querySelector("#remote").hasAttribute("busy"), null, { timeout: 30_000 });
    assert.equal(await el.getByRole("img", { name: LABEL }).count(), 0);
    await check();
  });
});

test("qrSVG draws codes of every size that read back exactly, on white in a dark page", T, async () => {
  const texts = [
    "https://a.example/",
    `https://toolnexus.example.workers.dev/approve?run=run_${"0a1b".repeat(8)}&req=call_${"9".repeat(24)}&d=${"f".repeat(64)}&e=1796440849&s=${"A".repeat(43)}`,
    `https://example.com/approve?note=déjà vu ✓ 承認&pad=${"x".repeat(900)}`,
  ];
  await withPage(async (page, check) => {
    await page.goto(site.server.url + "qr-blank.html");
    for (const [i, text] of texts.entries()) {
      await page.evaluate(async ({ text, i }) => {
        const { qrSVG } = await import("./qr-code.mjs");
        const svg = qrSVG(text, { label: `code ${i}` });
        svg.id = `code${i}`;
        document.body.append(svg);
      }, { text, i });
      const svg = page.getByRole("img", { name: `code ${i}` });
      const side = await svg.evaluate((s) => s.viewBox.baseVal.width);
      const box = await svg.boundingBox();
      assert.ok(box.width >= 160, `code ${i}: ${box.width} px`);
      assert.equal(box.width % side, 0, `code ${i}: ${box.width} px for ${side} modules`);
      assert.equal(await scan(page, svg), text, `code ${i} (${side} modules)`);
    }
    // Too long for any QR code: an error the element catches (the link alone is shown).
    const err = await page.evaluate(async () => {
      const { qrSVG } = await import("./qr-code.mjs");
      try { qrSVG("x".repeat(5000)); return null; } catch (e) { return String(e?.message ?? e); }
    });
    assert.ok(err, "a 5000-character text made a QR code");
    await check();
  }, { colorScheme: "dark" });
});
