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
    const note = el.locator(".entry.note", { hasText: "Waiting for approval — open this link on another device" });
    const qr = note.getByRole("img", { name: LABEL });
    await qr.waitFor();

    const st = await worker.call("GET", `/v1/runs/${id}`);
    assert.equal(st.json.status, "pending", st.text);
    const { approveURL } = st.json.pending;
    assert.match(approveURL, /^https?:\/\/\S+\/approve\?/);
    assert.ok((await note.textContent()).includes(approveURL), "the note names the link");
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
    assert.ok((await note.textContent()).includes(approveURL), "the link stays in the transcript");
    await check();
  }, { colorScheme: "dark" });
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
