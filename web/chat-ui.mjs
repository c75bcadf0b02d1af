// chat-ui.mjs — the <toolnexus-chat> element's box: its transcript, status
// line and message field, and their stylesheet. Side-effect free. The
// element (chat-element.mjs) builds it in its shadow root, or takes the one
// toolnexus-chat.mjs painted there before the element's modules arrived.

import { adoptStyles } from "./styles.mjs";

/**
 * chatUI returns the parts of the box in root (a ShadowRoot): the one
 * already there (painted by toolnexus-chat.mjs), else a new one. Static
 * markup only, no data from anyone.
 * @param {ShadowRoot} root
 */
export function chatUI(root) {
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
