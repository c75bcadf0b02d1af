// toolnexus-chat.mjs — one module script puts an agent chat into any page:
//
//   <script type="module" src="toolnexus-chat.mjs"></script>
//   <toolnexus-chat demo></toolnexus-chat>
//
// It paints each <toolnexus-chat>'s box (the transcript, the status line and
// the message field, which takes input at once) as soon as it runs, with no
// import of its own: each import is one more round trip before the page can
// show the box (issue 35: navigation → visible). Once the box has painted it
// loads the element itself (chat-element.mjs: the class, side-effect free,
// and what it imports) and defines it unless something already did; the
// element takes the painted box, with what was typed into it. The wasm is
// fetched from beside this file (or the element's wasm attribute) after
// that. The box's code below is a copy of chat-ui.mjs and styles.mjs, kept
// equal by scripts/chat-shell.mjs. (The npm package's
// "toolnexus-wasm/element" is web/npm/toolnexus-chat.mjs: a bundler puts the
// modules in one file, so it imports the class and exports it.)

const TAG = "toolnexus-chat";

// paint gives each element of the tag under node that has no box yet its box.
function paint(node) {
  const all = node.localName === TAG ? [node] : node.querySelectorAll?.(TAG) ?? [];
  for (const el of all) {
    if (el.shadowRoot || customElements.get(TAG)) continue;
    chatUI(el.attachShadow({ mode: "open", delegatesFocus: true }));
  }
}

// --- begin: copied from chat-ui.mjs and styles.mjs by scripts/chat-shell.mjs; do not edit ---
// styles.mjs
const SHEETS = new WeakMap(); // Document -> Map<css text, CSSStyleSheet>
// Marks our sheets with their CSS text. Symbol.for is shared by every copy of
// this module in a realm (one loaded twice under two URLs), so a root never
// adopts the same CSS twice.
const MARK = Symbol.for("toolnexus.stylesheet");

/**
 * adoptStyles gives root (a Document or a ShadowRoot) the static stylesheet
 * css, once however often it is called: the sheet is appended to the root's
 * adoptedStyleSheets, so sheets another script adopted stay. Where
 * constructable stylesheets are missing it falls back to one <style id=name>
 * element (which a style-src without 'unsafe-inline' refuses). Internal:
 * used by this dialog and <toolnexus-chat> (chat-element.mjs).
 * @param {Document|ShadowRoot} root
 * @param {string} name the fallback element's id
 * @param {string} css static text only, never data from a request
 */
function adoptStyles(root, name, css) {
  const doc = root.nodeType === 9 ? root : root.ownerDocument;
  const sheet = "adoptedStyleSheets" in root ? constructed(doc, css) : null;
  if (sheet) {
    const adopted = root.adoptedStyleSheets;
    if (!adopted.some((s) => s[MARK] === css)) root.adoptedStyleSheets = [...adopted, sheet];
    return;
  }
  if (root.getElementById(name)) return;
  const style = doc.createElement("style");
  style.id = name;
  style.textContent = css;
  if (root === doc) (doc.head ?? doc.documentElement).append(style);
  else root.prepend(style);
}

// constructed returns doc's sheet holding css, made on first use, or null
// where the browser cannot construct one. A sheet is made with doc's own
// CSSStyleSheet: a root may only adopt sheets of its own document.
function constructed(doc, css) {
  let byText = SHEETS.get(doc);
  let sheet = byText?.get(css);
  if (sheet) return sheet;
  const Sheet = doc.defaultView?.CSSStyleSheet;
  if (typeof Sheet !== "function") return null;
  try {
    sheet = new Sheet();
    sheet.replaceSync(css);
  } catch {
    return null; // CSSStyleSheet without a constructor (older browsers)
  }
  sheet[MARK] = css;
  if (!byText) SHEETS.set(doc, byText = new Map());
  byText.set(css, sheet);
  return sheet;
}

// chat-ui.mjs
/**
 * chatUI returns the parts of the box in root (a ShadowRoot): the one
 * already there (painted by toolnexus-chat.mjs), else a new one. Static
 * markup only, no data from anyone.
 * @param {ShadowRoot} root
 */
function chatUI(root) {
  adoptStyles(root, "toolnexus-chat-style", CSS); // a constructable stylesheet: style-src does not govern it
  const chat = [...root.children].find((c) => c.classList.contains("chat"));
  if (chat) {
    const [log, status, form] = chat.children;
    return { log, status, input: form.querySelector("input"), send: form.querySelector("button"), form };
  }
  const el = (tag, attrs = {}, ...children) => {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    node.append(...children);
    return node;
  };
  const log = el("div", { class: "log", part: "transcript", role: "log", "aria-live": "polite", "aria-label": "Conversation", tabindex: "0" });
  const status = el("p", { class: "status", part: "status", role: "status", "aria-live": "polite" });
  const input = el("input", { id: "message", part: "input", type: "text", autocomplete: "off", enterkeyhint: "send" });
  const label = el("label", { for: "message", class: "sr-only" }, "Message");
  const send = el("button", { type: "submit", part: "send" }, "Send");
  const form = el("form", { part: "composer" }, label, input, send);
  root.append(el("div", { class: "chat", part: "container" }, log, status, form));
  return { log, status, input, send, form };
}

// Defaults come from --toolnexus-* custom properties a page may set from outside.
const CSS = `
:host { display: block; color-scheme: light dark;
  --_bg: var(--toolnexus-bg, #ffffff); --_fg: var(--toolnexus-fg, #1b1f24);
  --_muted: var(--toolnexus-muted, #57606a); --_border: var(--toolnexus-border, #d0d7de);
  --_accent: var(--toolnexus-accent, #0969da); --_accent-fg: var(--toolnexus-accent-fg, #ffffff);
  --_danger: var(--toolnexus-danger, #cf222e); --_user-bg: var(--toolnexus-user-bg, #ddf4ff);
  --_tool-bg: var(--toolnexus-tool-bg, #f6f8fa);
  font: var(--toolnexus-font, 15px/1.45 system-ui, sans-serif); color: var(--_fg); }
@media (prefers-color-scheme: dark) {
  :host { --_bg: var(--toolnexus-bg, #161b22); --_fg: var(--toolnexus-fg, #e6edf3);
    --_muted: var(--toolnexus-muted, #9198a1); --_border: var(--toolnexus-border, #3d444d);
    --_accent: var(--toolnexus-accent, #1f6feb); --_accent-fg: var(--toolnexus-accent-fg, #ffffff);
    --_danger: var(--toolnexus-danger, #ff7b72); --_user-bg: var(--toolnexus-user-bg, #12263b);
    --_tool-bg: var(--toolnexus-tool-bg, #0d1117); }
}
:host([hidden]) { display: none; }
.chat { display: flex; flex-direction: column; gap: 8px; box-sizing: border-box;
  height: var(--toolnexus-height, 420px); padding: 12px; background: var(--_bg);
  border: 1px solid var(--_border); border-radius: var(--toolnexus-radius, 12px); }
.log { flex: 1; overflow: auto; display: flex; flex-direction: column; gap: 6px; padding: 2px; }
.entry { max-width: 85%; padding: 6px 10px; border-radius: 10px; white-space: pre-wrap; overflow-wrap: anywhere; }
.who { display: block; font-size: .75em; color: var(--_muted); }
.user { align-self: flex-end; background: var(--_user-bg); }
.assistant, .note, .error { align-self: flex-start; border: 1px solid var(--_border); }
.tool-call, .tool-result, .declined { align-self: flex-start; background: var(--_tool-bg); border: 1px solid var(--_border); }
.declined { border-left: 3px solid var(--_muted); }
.text { display: block; }
code.text { font: 13px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; }
.entry.error { border-left: 3px solid var(--_danger); }
.entry.error .who { color: var(--_danger); font-weight: 600; }
.status { margin: 0; min-height: 1.2em; font-size: .85em; color: var(--_muted); }
form { display: flex; gap: 8px; margin: 0; }
input { flex: 1; min-width: 0; font: inherit; color: inherit; background: var(--_bg);
  border: 1px solid var(--_border); border-radius: 8px; padding: 6px 10px; }
button { font: inherit; padding: 6px 16px; border-radius: 8px; cursor: pointer;
  border: 1px solid var(--_accent); background: var(--_accent); color: var(--_accent-fg); }
button:disabled { opacity: .55; cursor: default; }
:focus-visible { outline: 2px solid var(--_accent); outline-offset: 2px; }
.qr { margin: 6px 0 2px; display: flex; flex-direction: column; align-items: flex-start; gap: 4px; white-space: normal; }
.qr svg { display: block; max-width: 100%; height: auto; border-radius: 4px; }
.qr figcaption { font-size: .8em; color: var(--_muted); }
.note a { color: var(--_accent); }
.answer-here { display: block; margin-top: 6px; padding: 4px 12px; }
.decision { margin: 4px 0 0; font-size: .85em; color: var(--_muted); white-space: normal; }
.revoke { margin-top: 4px; padding: 2px 10px; font-size: .85em; background: transparent; color: var(--_accent); }
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
`;
// --- end of the copy ---

// Runs last: the copy's constants (CSS) are set by now.
if (!customElements.get(TAG)) {
  paint(document);
  // Elements a script adds before the class arrives get a box too.
  const added = new MutationObserver((records) => {
    for (const r of records) for (const n of r.addedNodes) if (n.nodeType === 1) paint(n);
  });
  added.observe(document, { childList: true, subtree: true });
  // The class after the box has painted: parsing it and the element's start
  // would otherwise hold that paint back.
  const afterPaint = new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  afterPaint.then(() => import("./chat-element.mjs")).then(({ ToolnexusChatElement }) => {
    added.disconnect();
    ToolnexusChatElement.define(TAG);
  }, (err) => {
    added.disconnect();
    console.error(`toolnexus-chat: the element could not be loaded: ${err?.message ?? err}`);
  });
}
