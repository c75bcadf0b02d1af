// demo-page.mjs — driving the demo page (web/index.html) in Chromium: open
// it, send a message, wait until the run is over. Shared by the suites that
// test through the demo.

// openDemoAt opens the demo at url and waits until it is ready to take a
// message (demo.mjs sets html[data-ready] once the wasm has loaded).
export async function openDemoAt(page, url) {
  await page.goto(url);
  await page.waitForSelector("html[data-ready='1']");
}

// send types text into the message box and sends it.
export async function send(page, text) {
  await page.getByRole("textbox", { name: "Message" }).fill(text);
  await page.getByRole("button", { name: "Send" }).click();
}

// idle waits until the run is over: Send is usable again and no dialog is open.
export async function idle(page, timeout = 30_000) {
  await page.waitForFunction(() => !document.getElementById("send").disabled && !document.querySelector("dialog[open]"),
    null, { timeout });
}
