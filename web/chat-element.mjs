// chat-element.mjs — the <toolnexus-chat> class. Importing it defines nothing
// (toolnexus-chat.mjs does, guarded); it fetches nothing until an element connects.
//
// Configuration: attributes (mirrored as properties) model, base-url, style,
// system-prompt, max-turns, endpoint, demo, wasm; a <script type="application/json">
// child {tools: [http tools], variables}; JS-only properties tools (function
// tools), variables and apiKey. Events (bubbling, composed CustomEvents):
// toolnexus:tool-call, toolnexus:pending, toolnexus:done, toolnexus:error.
// Anything a model or a tool wrote reaches the page through textContent only.

import { approvalDialog } from "./approval-dialog.mjs";
import { httpToolSpecs, localEngine, remoteEngine } from "./chat-engine.mjs";

const ATTRS = ["model", "base-url", "style", "system-prompt", "max-turns", "endpoint", "demo", "wasm"];
const WIRE_STYLES = new Set(["openai", "anthropic"]);
const PROPS = ["model", "baseUrl", "apiStyle", "systemPrompt", "maxTurns", "endpoint", "demo", "wasm", "tools", "variables", "apiKey"];
const DEFAULT_WASM = new URL("./toolnexus.wasm", import.meta.url);

export class ToolnexusChatElement extends HTMLElement {
  static get observedAttributes() { return ATTRS; }

  /** Register the element under tag (once; a second call is a no-op). */
  static define(tag = "toolnexus-chat", registry = globalThis.customElements) {
    if (!registry.get(tag)) registry.define(tag, this);
    return this;
  }

  #ui;
  #engine = null;   // {version, promise, history, running, retired}
  #version = 0;     // bumped by every configuration change
  #warmQueued = false;
  #busy = false;
  #tools = [];
  #variables = {};
  #apiKey = undefined;
  #ask = null;      // this element's approval dialog (one queue per element)
  #onSubmit = (e) => {
    e.preventDefault();
    if (this.#busy) return; // keep the draft until the run ends
    const text = this.#ui.input.value;
    this.#ui.input.value = "";
    this.send(text).catch(() => {}); // reported in the transcript and as toolnexus:error
  };

  constructor() {
    super();
    const root = this.attachShadow({ mode: "open", delegatesFocus: true });
    this.#ui = buildUI(root);
  }

  connectedCallback() {
    // A page may set properties before the element was defined: those landed
    // on the instance itself and would hide the accessors, so re-set them.
    for (const p of PROPS) {
      if (Object.hasOwn(this, p)) {
        const v = this[p];
        delete this[p];
        this[p] = v;
      }
    }
    this.#ui.form.addEventListener("submit", this.#onSubmit);
    this.#queueWarm();
  }

  disconnectedCallback() {
    this.#ui.form.removeEventListener("submit", this.#onSubmit);
    // A move (disconnect then connect in one task) keeps the engine; removal frees it.
    queueMicrotask(() => { if (!this.isConnected) this.#retire(); });
  }

  attributeChangedCallback(name, oldValue, newValue) {
    if (oldValue === newValue) return;
    if (name === "style" && !WIRE_STYLES.has(newValue ?? "") && !WIRE_STYLES.has(oldValue ?? "")) return; // inline CSS
    this.#changed();
  }

  // Attributes mirrored as properties. `style` is also HTML's inline-CSS
  // attribute, so the wire style is read from it only when it says openai or
  // anthropic, and its property is apiStyle.
  get model() { return this.getAttribute("model") ?? ""; }
  set model(v) { this.setAttribute("model", v); }
  get baseUrl() { return this.getAttribute("base-url") ?? ""; }
  set baseUrl(v) { this.setAttribute("base-url", v); }
  get apiStyle() { const s = this.getAttribute("style") ?? ""; return WIRE_STYLES.has(s) ? s : "openai"; }
  set apiStyle(v) { this.setAttribute("style", v); }
  get systemPrompt() { return this.getAttribute("system-prompt") ?? ""; }
  set systemPrompt(v) { this.setAttribute("system-prompt", v); }
  get maxTurns() { const n = parseInt(this.getAttribute("max-turns") ?? "", 10); return Number.isFinite(n) && n > 0 ? n : undefined; }
  set maxTurns(v) { this.setAttribute("max-turns", String(v)); }
  get endpoint() { return this.getAttribute("endpoint") ?? ""; }
  set endpoint(v) { this.setAttribute("endpoint", v); }
  get demo() { return this.hasAttribute("demo"); }
  set demo(v) { this.toggleAttribute("demo", !!v); }
  get wasm() { return this.getAttribute("wasm") ?? ""; }
  set wasm(v) { this.setAttribute("wasm", v); }

  /** Function tools (defineTool specs: {name, description, inputSchema, run, needsApproval}). */
  get tools() { return [...this.#tools]; }
  set tools(v) { this.#tools = Array.isArray(v) ? [...v] : []; this.#changed(); }

  /** Values for ${NAME} in HTTP tool headers; only what the page passes in. */
  get variables() { return { ...this.#variables }; }
  set variables(v) { this.#variables = v && typeof v === "object" ? { ...v } : {}; this.#changed(); }

  /** A provider key for local experiments only: write-only, never an attribute. */
  set apiKey(v) { this.#apiKey = v ? String(v) : undefined; this.#changed(); }

  get busy() { return this.#busy; }

  /** Send a message as if typed; resolves to the RunResult (rejects on failure). */
  async send(text) {
    const prompt = String(text ?? "").trim();
    if (!prompt || this.#busy) return null;
    this.#entry("user", "You", prompt);
    let engine = null;
    const seen = new Set(); // tool calls already shown during this message
    try {
      engine = this.#currentEngine();
      engine.running++;
      this.#setBusy(true, engine.ready ? "Working…" : "Loading the agent…");
      const ready = await engine.promise;
      this.#setBusy(true, "Working…");
      const result = await ready.run(prompt, engine.history, {
        waitFor: (request) => this.#waitFor(request),
        onStep: (step) => this.#showToolCalls(step, seen),
      });
      if (Array.isArray(result.messages)) engine.history = result.messages;
      if (result.text) this.#entry("assistant", "Assistant", result.text);
      if (result.status === "incomplete") this.#entry("note", "Note", `The run stopped early (${result.limit || "turn limit"}).`, true);
      const { state, ...detail } = result; // a sealed state token is nobody's business after the run
      this.#emit("toolnexus:done", { result: detail });
      return result;
    } catch (err) {
      const message = err?.message ?? String(err);
      if (err?.result) this.#showToolCalls(err.result, seen); // what ran before the failure
      this.#entry("error", "Error", message, true);
      if (engine) this.#dropFailed(engine);
      this.#emit("toolnexus:error", { message, result: err?.result });
      throw err;
    } finally {
      if (engine && --engine.running === 0 && engine.retired) closeEngine(engine);
      this.#setBusy(false);
    }
  }

  /** Start a new conversation: clear the transcript and the history. */
  reset() {
    if (this.#engine) this.#engine.history = [];
    this.#ui.log.replaceChildren();
  }

  // #changed marks the configuration stale; bursts become one rebuild.
  #changed() {
    this.#version++;
    this.toggleAttribute("ready", false);
    this.#queueWarm();
  }

  #queueWarm() {
    if (this.#warmQueued) return;
    this.#warmQueued = true;
    queueMicrotask(() => {
      this.#warmQueued = false;
      if (!this.isConnected) return;
      this.#ui.input.placeholder = this.demo ? "Try: refund order 42 · add 2 and 3" : "Ask something…";
      const engine = this.#currentEngine();
      engine.promise.then(() => {
        if (this.#engine === engine) this.toggleAttribute("ready", true);
      }, (err) => {
        if (this.#engine !== engine) return;
        this.#dropFailed(engine);
        this.#entry("error", "Error", err?.message ?? String(err), true);
        this.#emit("toolnexus:error", { message: err?.message ?? String(err) });
      });
    });
  }

  // #currentEngine returns the engine for the current configuration, building it if needed.
  #currentEngine() {
    if (this.#engine && this.#engine.version === this.#version) return this.#engine;
    this.#retire();
    const engine = { version: this.#version, history: [], running: 0, retired: false, ready: false };
    engine.promise = this.#build().then((e) => { engine.ready = true; return e; });
    engine.promise.catch(() => {}); // reported by whoever awaits it
    this.#engine = engine;
    return engine;
  }

  // A failed build (e.g. the wasm did not load) is retried on the next send.
  #dropFailed(engine) {
    if (this.#engine === engine && !engine.ready) this.#engine = null;
  }

  #retire() {
    const old = this.#engine;
    this.#engine = null;
    if (!old) return;
    old.retired = true;
    if (old.running === 0) closeEngine(old);
  }

  async #build() {
    if (this.endpoint) return remoteEngine({ endpoint: this.endpoint });
    const config = this.#jsonConfig();
    const wasm = this.wasm ? new URL(this.wasm, document.baseURI) : DEFAULT_WASM;
    return localEngine({
      wasm,
      demo: this.demo,
      baseURL: this.baseUrl || undefined,
      model: this.model || undefined,
      style: this.apiStyle,
      apiKey: this.#apiKey,
      systemPrompt: this.systemPrompt || undefined,
      maxTurns: this.maxTurns,
      tools: [...httpToolSpecs(config, document.baseURI), ...this.#tools],
      variables: { ...config.variables, ...this.#variables },
    });
  }

  // #jsonConfig reads the <script type="application/json"> child, if any.
  #jsonConfig() {
    const script = [...this.children].find((c) => c.localName === "script" && c.type === "application/json");
    if (!script) return {};
    try {
      const config = JSON.parse(script.textContent || "{}");
      return config && typeof config === "object" ? config : {};
    } catch (err) {
      throw new Error(`toolnexus-chat: the JSON config is not valid JSON: ${err.message}`);
    }
  }

  async #waitFor(request) {
    this.#emit("toolnexus:pending", { request });
    this.#setBusy(true, "Waiting for your approval…");
    this.#ask ??= approvalDialog();
    try {
      return await this.#ask(request);
    } finally {
      this.#setBusy(true, "Working…");
    }
  }

  #showToolCalls(result, seen) {
    for (const call of result?.toolCalls ?? []) {
      const key = call.id || `${call.name} ${compact(call.args)} ${seen.size}`;
      if (seen.has(key)) continue;
      seen.add(key);
      this.#entry("tool-call", "Tool call", `${call.name} ${compact(call.args)}`);
      this.#entry("tool-result", call.isError ? "Tool error" : "Tool result", String(call.output ?? ""), !!call.isError);
      this.#emit("toolnexus:tool-call", { id: call.id, name: call.name, args: call.args, output: call.output, isError: !!call.isError });
    }
  }

  #setBusy(on, text = "") {
    const { log, send, status, input } = this.#ui;
    const hadFocus = this.shadowRoot.activeElement != null;
    this.#busy = on;
    this.toggleAttribute("busy", on);
    log.setAttribute("aria-busy", String(on));
    send.disabled = on;
    status.textContent = text;
    // Give the textbox back after a run (the dialog returns focus to the host).
    if (!on && (hadFocus || document.activeElement === this)) input.focus();
  }

  // #entry appends one transcript line; text goes through textContent only.
  #entry(kind, who, text, isError = false) {
    const div = document.createElement("div");
    const marked = isError && kind !== "error";
    div.className = `entry ${kind}${marked ? " error" : ""}`;
    div.setAttribute("part", `entry entry-${kind}${marked ? " entry-error" : ""}`);
    const label = document.createElement("span");
    label.className = "who";
    label.setAttribute("part", "who");
    label.textContent = who;
    const body = document.createElement(kind.startsWith("tool") ? "code" : "span");
    body.className = "text";
    body.setAttribute("part", "text");
    body.textContent = text;
    div.append(label, body);
    this.#ui.log.append(div);
    this.#ui.log.scrollTop = this.#ui.log.scrollHeight;
  }

  #emit(type, detail) {
    this.dispatchEvent(new CustomEvent(type, { bubbles: true, composed: true, detail }));
  }
}

function closeEngine(engine) {
  engine.promise.then((e) => e.close(), () => {});
}

function compact(v) {
  if (typeof v === "string") {
    try { v = JSON.parse(v); } catch { return v; }
  }
  try { return JSON.stringify(v ?? {}); } catch { return String(v); }
}

// buildUI creates the shadow tree: static markup only, no data from anyone.
function buildUI(root) {
  const el = (tag, attrs = {}, ...children) => {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    node.append(...children);
    return node;
  };
  const style = el("style");
  style.textContent = CSS;
  const log = el("div", { class: "log", part: "transcript", role: "log", "aria-live": "polite", "aria-label": "Conversation", tabindex: "0" });
  const status = el("p", { class: "status", part: "status", role: "status", "aria-live": "polite" });
  const input = el("input", { id: "message", part: "input", type: "text", autocomplete: "off", enterkeyhint: "send" });
  const label = el("label", { for: "message", class: "sr-only" }, "Message");
  const send = el("button", { type: "submit", part: "send" }, "Send");
  const form = el("form", { part: "composer" }, label, input, send);
  root.append(style, el("div", { class: "chat", part: "container" }, log, status, form));
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
    --_accent: var(--toolnexus-accent, #2f81f7); --_accent-fg: var(--toolnexus-accent-fg, #ffffff);
    --_danger: var(--toolnexus-danger, #ff7b72); --_user-bg: var(--toolnexus-user-bg, #16324f);
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
.tool-call, .tool-result { align-self: flex-start; background: var(--_tool-bg); border: 1px solid var(--_border); }
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
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
`;
