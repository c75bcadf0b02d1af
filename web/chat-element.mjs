// chat-element.mjs — the <toolnexus-chat> class. Importing it defines nothing
// (toolnexus-chat.mjs does, guarded); it fetches nothing until an element connects.
//
// Configuration: attributes (mirrored as properties) model, base-url, style,
// system-prompt, max-turns, endpoint, demo, wasm, stream, persist, wait-limit;
// a <script type="application/json"> child {tools: [http tools], variables};
// JS-only properties tools (function tools), variables and apiKey. Events
// (bubbling, composed CustomEvents): toolnexus:tool-call, toolnexus:pending,
// toolnexus:done, toolnexus:error.
// Anything a model or a tool wrote reaches the page through textContent only.
//
// - Local runs stream: text appears as the model writes it, tool calls and
//   results as they happen. The demo model always streams; a base-url
//   provider streams when the `stream` attribute is set (it must then answer
//   stream:true with server-sent events). Remote mode (endpoint) streams when
//   the Worker offers durable runs (POST /v1/runs): a halt's dialog opens here
//   and a note links its approveURL, with the link's QR code while it waits
//   (web/qr-code.mjs, loaded then), so it can be answered on another device
//   too ("Answer on another device" steps the dialog aside, "Answer here"
//   brings it back), and the run goes on live; the call's line says the
//   decision the run recorded, and where it was given. With persist a
//   reload reattaches to the run. Otherwise it uses /v1/run + /v1/resume.
// - persist="key" keeps the conversation in this browser (IndexedDB, else
//   localStorage: web/store.mjs) so a reload shows it again and continues it.
//   In local mode it also makes approvals durable (web/durable-wait.mjs): a
//   request still unanswered when the page is hidden or unloaded, or after
//   wait-limit seconds, halts the run and is saved; the same dialog is offered
//   again when the page is visible again or on the next load, and the run
//   resumes with the person's answer. Nothing secret is stored (not apiKey).
//   Each local run is journaled too (web/browser-journal.mjs, issue 31): a
//   page that dies mid-run (no unload: a crashed tab) continues the run on
//   its next load — a model call in flight is made again, a recorded outcome
//   is reused, and an approved call whose outcome was lost is asked about
//   in the dialog, never run again blindly.

import { chatUI } from "./chat-ui.mjs";
import { answerLabel, decisionLabel, decisionNote, resultView, waitingStatus } from "./outcome.mjs";

// The approval dialog (and its forms: four more modules) is imported when
// the runtime is ready or a request first needs it, and the engine (its
// runtime, wasm URL and model) when the element has painted, not before the
// element can be defined: each level of static imports is one more round
// trip before the element shows (issue 27: navigation → visible), and its
// parsing delays the first paint (issue 35).
let dialogModule = null;
const loadDialog = () => (dialogModule ??= import("./approval-dialog.mjs"));
let engineModules = null;
const loadEngine = () => (engineModules ??= Promise.all([import("./chat-engine.mjs"), import("./wasm-urls.mjs")]));

// afterPaint runs fn once the page has painted the frame it is in: the
// engine's start (module parsing, the wasm's compile and Go's start) would
// otherwise hold the first paint of the element back.
const afterPaint = (fn) => requestAnimationFrame(() => setTimeout(fn, 0));

const ATTRS = ["model", "base-url", "style", "system-prompt", "max-turns", "endpoint", "demo", "wasm", "stream"];
// Read when used, so changing them does not rebuild the engine.
const LIVE_ATTRS = ["persist", "wait-limit"];
const WIRE_STYLES = new Set(["openai", "anthropic"]);
const PROPS = ["model", "baseUrl", "apiStyle", "systemPrompt", "maxTurns", "endpoint", "demo", "wasm", "stream", "persist",
  "waitLimit", "tools", "variables", "apiKey"];

export class ToolnexusChatElement extends HTMLElement {
  static get observedAttributes() { return [...ATTRS, ...LIVE_ATTRS]; }

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
  #view = [];       // what the transcript shows, as data: saved with the conversation
  // Tool call lines by call id (also rebuilt from a saved view), and the
  // answers given to calls whose line is not shown yet ({who, text}): the
  // answer to an approval is written on the call's own line.
  #callLines = new Map();
  #answered = new Map();
  // Approval decisions (core/approval): the conversation an "allow for this
  // conversation" holds in (a new one on reset), the grants given in it by
  // id ({entry, notes: [{note, revoke}]}), and decisions about calls whose
  // line is not shown yet, by call id.
  #conversation = newConversationID();
  #grants = new Map();
  #decided = new Map();
  #qrs = new Map(); // request id -> {figure, done, note, url}: the QR code shown while a durable run's request waits
  // Request id -> {note, url}: the "Waiting for approval" notes of durable
  // runs, marked answered with the recorded decision (#showRecorded).
  #notes = new Map();
  // Whether the transcript is scrolled to its end, which a width change
  // (text rewrapping) keeps it at; #seen is its size when that was last
  // judged, so a scroll the browser makes for a layout change (scroll
  // anchoring) is not taken for the person scrolling up.
  #atEnd = true;
  #seen = { h: 0, c: 0, top: 0 };
  #resized = new ResizeObserver(() => this.#keepEnd(true));
  #restored = null; // a saved history waiting for the first run to pick it up
  #halted = null;   // {messages, pending, journaled, hidden, later}: a run saved while waiting for an answer
  // The local run in progress (persist): {prompt}, saved with the
  // conversation until the run is over, so a reload continues it from its
  // journal (#continueCutOff).
  #running = null;
  #durable = null;  // {key, wait}: durableWait for the current persist key
  #restoring = null; // Promise of the restore started on the first connect
  #restoreDone = false;
  #onSubmit = (e) => {
    e.preventDefault();
    if (this.#busy) return; // keep the draft until the run ends
    const text = this.#ui.input.value;
    this.#ui.input.value = "";
    this.send(text).catch(() => {}); // reported in the transcript and as toolnexus:error
  };
  // Coming back to the page offers a request that was saved while it was hidden.
  #onVisible = () => {
    // A question left for later waits for the next message or visit.
    if (document.visibilityState === "visible" && this.#halted && !this.#halted.later && !this.#busy) this.#resumeHalted().catch(() => {});
  };

  constructor() {
    super();
    // toolnexus-chat.mjs may have painted the box before this class
    // arrived: the element takes it, with what was typed into it.
    const root = this.shadowRoot ?? this.attachShadow({ mode: "open", delegatesFocus: true });
    this.#ui = chatUI(root);
    this.#ui.log.addEventListener("scroll", () => this.#keepEnd(false), { passive: true });
  }

  // #observeLog watches the transcript's box and each of its lines: a width
  // change can rewrap the lines after the box has been laid out (seen in
  // Chromium: the end moved down with no resize of the box to tell), and a
  // line that grows (a streamed reply) moves the end too.
  #observeLog() {
    this.#resized.disconnect();
    this.#resized.observe(this.#ui.log);
    for (const line of this.#ui.log.children) this.#resized.observe(line);
  }

  // #keepEnd runs on a resize of the transcript and on its scroll events:
  // at its end it stays there when the layout changed; otherwise a scroll
  // is the person's and says whether they left the end.
  //
  // A scroll in a frame where the layout changed too is the browser's
  // (scroll anchoring) when it moved about as far as the layout did, and
  // the person's when it moved further: seen in Chromium, a person scrolling
  // up just before a width change was otherwise pulled back to the end.
  #keepEnd(resized) {
    const log = this.#ui.log;
    const changed = Math.abs(log.scrollHeight - this.#seen.h) + Math.abs(log.clientHeight - this.#seen.c);
    const theirs = !resized && Math.abs(log.scrollTop - this.#seen.top) > changed + 4;
    const relaid = resized || changed > 0;
    if (relaid && !theirs && this.#atEnd) log.scrollTop = log.scrollHeight;
    else this.#atEnd = log.scrollTop + log.clientHeight >= log.scrollHeight - 4;
    this.#seen = { h: log.scrollHeight, c: log.clientHeight, top: log.scrollTop };
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
    document.addEventListener("visibilitychange", this.#onVisible);
    this.#observeLog();
    this.#queueWarm();
    if (this.persist && !this.#restoring) this.#restoring = this.#restore();
  }

  disconnectedCallback() {
    this.#ui.form.removeEventListener("submit", this.#onSubmit);
    document.removeEventListener("visibilitychange", this.#onVisible);
    this.#resized.disconnect();
    // A move (disconnect then connect in one task) keeps the engine; removal frees it.
    queueMicrotask(() => { if (!this.isConnected) this.#retire(); });
  }

  attributeChangedCallback(name, oldValue, newValue) {
    if (oldValue === newValue) return;
    if (LIVE_ATTRS.includes(name)) return; // read when used
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
  get stream() { return this.hasAttribute("stream"); }
  set stream(v) { this.toggleAttribute("stream", !!v); }
  /** The key the conversation is saved under in this browser ("" = not saved). Read on connect. */
  get persist() { return this.getAttribute("persist") ?? ""; }
  set persist(v) { if (v) this.setAttribute("persist", v); else this.removeAttribute("persist"); }
  /** Seconds an approval waits inline before the run is saved and halted (0 = no limit). */
  get waitLimit() { const n = Number(this.getAttribute("wait-limit") ?? ""); return Number.isFinite(n) && n > 0 ? n : 0; }
  set waitLimit(v) { this.setAttribute("wait-limit", String(v)); }

  /** Function tools (defineTool specs: {name, description, inputSchema, run, needsApproval}). */
  get tools() { return [...this.#tools]; }
  set tools(v) { this.#tools = Array.isArray(v) ? [...v] : []; this.#changed(); }

  /** Values for ${NAME} in HTTP tool headers; only what the page passes in. */
  get variables() { return { ...this.#variables }; }
  set variables(v) { this.#variables = v && typeof v === "object" ? { ...v } : {}; this.#changed(); }

  /** A provider key for local experiments only: write-only, never an attribute. */
  set apiKey(v) { this.#apiKey = v ? String(v) : undefined; this.#changed(); }

  get busy() { return this.#busy; }

  /**
   * Send a message as if typed; resolves to the RunResult (rejects on failure).
   * A request saved while waiting for an answer is offered first.
   */
  async send(text) {
    const prompt = String(text ?? "").trim();
    if (!prompt || this.#busy) return null;
    if (this.#restoring && !this.#restoreDone) await this.#restoring;
    if (this.#halted) {
      await this.#resumeHalted().catch(() => {});
      if (this.#halted || this.#busy) return null; // still waiting: the message is not sent
    }
    if (this.#running) {
      await this.#continueCutOff().catch(() => {}); // a run cut off by a closed page goes first
      if (this.#halted || this.#busy) return null;
    }
    this.#entry("user", "You", prompt);
    return this.#drive((ready, engine, opts) => ready.run(prompt, engine.history, opts), { journaled: { prompt } });
  }

  // #drive runs one step (a new message, or a resumed run) on the current
  // engine and shows what happens as it happens. callShown: ids of calls the
  // transcript already shows (a resumed call), so only their results are added.
  // journaled, for a local persisting element: {prompt} starts a new
  // journaled run (the prompt saved first, so a reload continues it), true
  // goes on with the journal's run.
  async #drive(step, { callShown = [], journaled = null } = {}) {
    let engine = null;
    let journal = null;
    const seen = new Set(); // tool calls already shown during this run
    const live = { entry: null, text: false, args: new Map(callShown.map((id) => [id, undefined])) };
    try {
      engine = this.#currentEngine();
      engine.running++;
      if (this.#restored) {
        engine.history = this.#restored;
        this.#restored = null;
      }
      this.#setBusy(true, engine.ready ? "Working…" : "Loading the agent…");
      const ready = await engine.promise;
      this.#setBusy(true, "Working…");
      if (journaled) journal = await this.#journalFor(engine);
      if (journal && typeof journaled === "object") {
        await journal.clear(); // a finished run's leftovers
        this.#running = { prompt: journaled.prompt };
        await this.#save(engine.history);
      }
      const opts = {
        journal: journal ?? undefined,
        conversation: this.#conversation,
        // Each decision of the record: a rule's, a grant's, a person's (#showDecision).
        onDecision: (entry) => this.#showDecision(entry),
        waitFor: (request, o) => this.#waitFor(request, o),
        // A durable run (remote mode) reports the decision it recorded.
        onAnswered: (request, decision, where) => this.#showRecorded(request, decision, where),
        onStep: (s) => this.#showToolCalls(s, seen, live.args),
        onEvent: (e) => this.#onEvent(e, live, seen),
        // A durable run (remote mode) can also be answered through its link.
        onWaiting: (url, request) => this.#showWaiting(url, request),
        // With persist, a reload reattaches to the durable run (#restore).
        onStarted: (id, prompt) => this.#save(engine.history, { run: { id, prompt } }),
      };
      const wait = await this.#durableFor(engine);
      const result = wait
        ? await wait.run((signal) => step(ready, engine, { ...opts, signal }))
        : await step(ready, engine, opts);
      if (Array.isArray(result.messages)) engine.history = result.messages;
      if (result.durable) {
        // A run halted because the page was hidden is offered again once it is visible (#offerIfBack).
        const { HIDDEN, LATER } = await durablePromise;
        this.#halted = { messages: result.messages, pending: result.pending, hidden: result.why === HIDDEN,
          later: result.why === LATER, journaled: !!journal };
        this.#entry("note", "Note", result.why === LATER
          ? "Left for later: nothing was recorded. The question is offered again with your next message or on the next visit."
          : "A request is waiting for your answer. It is saved and will be offered again.");
        await this.#save(engine.history, { pending: result.pending });
      } else {
        if (result.text && !live.text) this.#entry("assistant", "Assistant", result.text);
        if (result.status === "incomplete") this.#entry("note", "Note", `The run stopped early (${result.limit || "turn limit"}).`, true);
        this.#running = null;
        await this.#save(engine.history);
        await journal?.clear().catch(() => {});
      }
      const { state, ...detail } = result; // a sealed state token is nobody's business after the run
      this.#emit("toolnexus:done", { result: detail });
      return result;
    } catch (err) {
      const message = err?.message ?? String(err);
      if (err?.result) this.#showToolCalls(err.result, seen, live.args); // what ran before the failure
      this.#entry("error", "Error", message, true);
      if (journal && this.#running) {
        // The conversation stays as it was before this message.
        this.#running = null;
        await this.#save(engine.history);
        await journal.clear().catch(() => {});
      }
      if (engine) this.#dropFailed(engine);
      this.#emit("toolnexus:error", { message, result: err?.result });
      throw err;
    } finally {
      if (engine && --engine.running === 0 && engine.retired) closeEngine(engine);
      this.#setBusy(false);
      if (this.#halted) this.#ui.status.textContent = "Waiting for your answer (saved).";
      this.#offerIfBack();
    }
  }

  // #offerIfBack runs when a run is over. The person may have come back
  // while the hide's halt was still being saved: #onVisible found the
  // element busy then and did nothing (issue 33), so a request halted
  // because the page was hidden is offered now if the page is visible.
  #offerIfBack() {
    if (this.#halted?.hidden && document.visibilityState === "visible") {
      queueMicrotask(() => this.#resumeHalted().catch(() => {}));
    }
  }

  /** Start a new conversation: clear the transcript and the history (and what persist saved). */
  reset() {
    if (this.#engine) this.#engine.history = [];
    this.#restored = null;
    this.#halted = null;
    this.#running = null;
    this.#view = [];
    this.#callLines = new Map();
    this.#answered = new Map();
    this.#conversation = newConversationID(); // what was allowed for the last one does not carry over
    this.#grants = new Map();
    this.#decided = new Map();
    for (const qr of this.#qrs.values()) qr.done = true;
    this.#qrs.clear();
    this.#notes.clear();
    this.#ui.log.replaceChildren();
    if (this.isConnected) this.#observeLog();
    if (this.persist) this.#store().then((s) => s.clear(this.#storeKey())).catch(() => {});
    if (this.persist && !this.endpoint) journalModule().then((m) => m.browserJournal(this.#storeKey()).clear()).catch(() => {});
  }

  // --- persistence (persist="key") ---

  #storeKey() { return `toolnexus-chat:${this.persist}`; }

  #store() {
    storePromise ??= import("./store.mjs").then((m) => m.browserStore());
    return storePromise;
  }

  // #restore shows the saved conversation and offers a saved request again.
  async #restore() {
    try {
      const saved = await (await this.#store()).get(this.#storeKey());
      if (!saved) return;
      if (typeof saved.conversation === "string" && saved.conversation) this.#conversation = saved.conversation;
      for (const v of Array.isArray(saved.view) ? saved.view : []) {
        if (v && typeof v === "object") this.#entry(String(v.kind), String(v.who), String(v.text ?? ""), !!v.isError, v.callId);
      }
      if (saved.messages.length > 0) this.#restored = saved.messages;
      const run = saved.run;
      if (this.endpoint && run && typeof run.id === "string" && typeof run.prompt === "string") {
        // A durable run was going on when the page went away: follow it again.
        queueMicrotask(() => this.#drive((ready, engine, opts) => (typeof ready.follow === "function"
          ? ready.follow(run.id, run.prompt, engine.history, opts)
          : Promise.reject(new Error("toolnexus-chat: this engine cannot reattach to a run")))).catch(() => {}));
      }
      if (!this.endpoint && run && typeof run.prompt === "string") this.#running = { prompt: run.prompt };
      if (saved.pending && typeof saved.pending === "object" && !this.endpoint) {
        this.#halted = { messages: saved.messages, pending: saved.pending, journaled: !!this.#running };
        this.#ui.status.textContent = "Waiting for your answer (saved).";
        if (document.visibilityState === "visible") queueMicrotask(() => this.#resumeHalted().catch(() => {}));
      } else if (this.#running) {
        // The page closed in the middle of a run: it goes on from its journal.
        queueMicrotask(() => this.#continueCutOff().catch(() => {}));
      }
    } catch (err) {
      this.#entry("error", "Error", `The saved conversation could not be read: ${err?.message ?? err}`, true);
    } finally {
      this.#restoreDone = true;
    }
  }

  // #save writes the conversation, if this element persists it. It never
  // rejects: a run's outcome does not hang on storage (toolnexus:done is
  // emitted after it, so a listener may rely on what is saved).
  #save(messages, extra = {}) {
    if (!this.persist) return Promise.resolve();
    const key = this.#storeKey();
    const view = this.#view.map((v) => ({ ...v }));
    const run = this.#running ? { run: this.#running } : {};
    return this.#store().then((s) => s.save(key, messages ?? [], { ...run, ...extra, view, conversation: this.#conversation }))
      .catch((err) => console.warn("toolnexus-chat: the conversation was not saved:", err));
  }

  // #durableFor gives local runs of a persisting element the durable waitFor.
  async #durableFor(engine) {
    if (!this.persist || this.endpoint || !engine) return null;
    const { durableWait } = await (durablePromise ??= import("./durable-wait.mjs"));
    const key = this.#storeKey();
    const limitMs = this.waitLimit * 1000;
    if (this.#durable?.key === key && this.#durable.limitMs === limitMs) return this.#durable.wait;
    this.#durable = { key, limitMs, wait: null };
    // store.mjs is loaded by #restore on connect; the wrapper saves through it.
    const store = { save: (id, messages, extra, opts) => this.#store().then((s) => s.save(id, messages, extra, opts)) };
    this.#durable.wait = durableWait({
      ask: (request, opts) => this.#askDialog(request, opts),
      store, id: key, limitMs,
      extra: () => ({ view: this.#view.map((v) => ({ ...v })), ...(this.#running ? { run: this.#running } : {}) }),
    });
    return this.#durable.wait;
  }

  // #journalFor is the journal of a local persisting element's runs (one
  // at a time, named by its persist key), or null.
  async #journalFor(engine) {
    if (!this.persist || this.endpoint || !engine) return null;
    const { browserJournal } = await journalModule();
    return browserJournal(this.#storeKey());
  }

  // #continueCutOff continues the local run a closed page cut off: what its
  // journal recorded is shown first, then the run goes on from there.
  async #continueCutOff() {
    const run = this.#running;
    if (!run || this.#busy || this.#halted) return null;
    this.#busy = true; // claimed while the journal is read
    try {
      const { browserJournal, recordedEvents } = await journalModule();
      const texts = await browserJournal(this.#storeKey()).load();
      this.#entry("note", "Note", "The page closed while a run was going on: it continues from where it stopped.");
      const live = { entry: null, text: false, args: new Map() };
      const seen = new Set();
      for (const e of recordedEvents(texts)) {
        if (e.type === "answer") this.#showAnswer(e.request, e.answer);
        else this.#onEvent(e, live, seen);
      }
    } finally {
      this.#busy = false;
    }
    return this.#drive((ready, engine, opts) => ready.run(run.prompt, engine.history, opts), { journaled: true });
  }

  // #resumeHalted offers the saved request again (the same dialog) and
  // resumes the halted run with the person's answer.
  async #resumeHalted() {
    const halted = this.#halted;
    if (!halted || this.#busy) return null;
    this.#busy = true; // claimed while the dialog is open
    let answer;
    try {
      this.#setBusy(true, waitingStatus(halted.pending));
      this.#emit("toolnexus:pending", { request: halted.pending });
      answer = await this.#askDialog(halted.pending);
    } catch (err) {
      answer = { id: halted.pending.id, ok: false, reason: err?.message ?? String(err) };
    } finally {
      this.#setBusy(false);
    }
    if (this.#halted !== halted) return null; // reset meanwhile
    if (answer?.later) {
      this.#ui.status.textContent = "Waiting for your answer (saved)."; // left for later again: nothing recorded
      return null;
    }
    this.#showAnswer(halted.pending, answer);
    // The answer is used once: a reload from here on must not run the tool again.
    this.#halted = null;
    this.#restored = null;
    await this.#save(halted.messages);
    const engine = this.#currentEngine();
    engine.history = halted.messages;
    const waiting = [halted.pending.data?.callId, ...(halted.pending.data?.calls ?? []).map((c) => c?.id)];
    const answered = { ...answer, id: halted.pending.id };
    return this.#drive((ready, eng, opts) => {
      // A journaled run goes on from its journal, the answer recorded first.
      if (halted.journaled && opts.journal) return ready.continue(opts.journal, answered, opts);
      if (typeof ready.resume !== "function") throw new Error("toolnexus-chat: this engine cannot resume a saved run");
      return ready.resume(halted.messages, halted.pending, answered, opts);
    }, { callShown: waiting.filter((id) => typeof id === "string"), journaled: halted.journaled || null });
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
      // Short enough to show whole in a 375 px wide screen.
      if (this.isConnected) this.#ui.input.placeholder = this.demo ? "Try: refund order 42" : "Ask something…";
    });
    afterPaint(() => {
      this.#warmQueued = false;
      if (!this.isConnected) return;
      const engine = this.#currentEngine();
      this.#showLoading(engine);
      engine.promise.then(() => {
        if (this.#engine === engine) this.toggleAttribute("ready", true);
        loadDialog().catch(() => {}); // fetched before the first request needs it
      }, (err) => {
        if (this.#engine !== engine) return;
        this.#dropFailed(engine);
        this.#entry("error", "Error", err?.message ?? String(err), true);
        this.#emit("toolnexus:error", { message: err?.message ?? String(err) });
      });
    });
  }

  // #showLoading says the agent is loading until engine is ready. The
  // element takes input meanwhile: a message sent waits for it (#drive).
  #showLoading(engine) {
    if (engine.ready || this.#busy) return;
    const { status } = this.#ui;
    const text = "Loading the agent…";
    status.textContent = text;
    const clear = () => { if (!this.#busy && status.textContent === text) status.textContent = ""; };
    engine.promise.then(clear, clear);
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
    const [{ httpToolSpecs, localEngine, remoteEngine }, { wasmURL }] = await loadEngine();
    if (this.endpoint) return remoteEngine({ endpoint: this.endpoint });
    const config = this.#jsonConfig();
    // The MCP client is in the tools build only (toolnexus.wasm leaves it out):
    // a config with mcpServers and no wasm attribute loads that build. The
    // default's URL is content-hashed after ./build.sh (wasm-urls.mjs).
    const wasm = this.wasm ? new URL(this.wasm, document.baseURI) : wasmURL(config.mcpServers ? "tools" : "default");
    return localEngine({
      wasm,
      demo: this.demo,
      baseURL: this.baseUrl || undefined,
      model: this.model || undefined,
      style: this.apiStyle,
      apiKey: this.#apiKey,
      systemPrompt: this.systemPrompt || undefined,
      maxTurns: this.maxTurns,
      stream: this.stream,
      tools: [...httpToolSpecs(config, document.baseURI), ...this.#tools],
      variables: { ...config.variables, ...this.#variables },
      mcpServers: config.mcpServers,
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

  // #waitFor asks the person. recorded (a durable run) means the run
  // records the decision and reports it (#showRecorded): the line is not
  // labelled from how the dialog closed, which is "aborted" when the answer
  // came from another device.
  async #waitFor(request, { signal, recorded = false } = {}) {
    this.#emit("toolnexus:pending", { request });
    this.#setBusy(true, waitingStatus(request));
    try {
      const wait = this.#durable?.key === this.#storeKey() && this.persist && !this.endpoint ? this.#durable.wait : null;
      let answer = await (wait ? wait.waitFor(request, { signal })
        : recorded ? this.#askHereOrThere(request, signal) : this.#askDialog(request, { signal }));
      if (!recorded) {
        this.#showAnswer(request, answer);
        // For the record: who answered, and where (core/approval).
        if (request?.kind === "approval" && answer && typeof answer.ok === "boolean") {
          answer = { ...answer, data: { ...answer.data, approver: "in page", from: "tab" } };
        }
      }
      return answer;
    } finally {
      const qr = this.#qrs.get(request?.id);
      if (qr) {
        qr.done = true;
        qr.figure?.remove();
        qr.here?.remove();
        this.#qrs.delete(request.id);
      }
      this.#setBusy(true, "Working…");
    }
  }

  // #askHereOrThere shows the dialog of a durable run's request, which can
  // also be answered through its link: "Answer on another device" steps the
  // dialog aside so the link and its QR code are in plain view (the modal
  // dialog covered and dimmed them), and "Answer here" in the note brings
  // it back. An answer from elsewhere aborts signal. "Decide later" on a
  // question about a lost outcome does the same: nothing is recorded, the
  // run waits, and "Answer here" asks again.
  async #askHereOrThere(request, signal) {
    for (;;) {
      let shown = this.#qrs.get(request?.id);
      const answer = await this.#askDialog(request, { signal, elsewhere: shown ? "Answer on another device" : undefined });
      if (!answer?.elsewhere && !answer?.later) return answer;
      if (!shown) {
        // No link to show: a note of its own carries "Answer here".
        shown = { note: this.#entry("note", "Note", "Left for later: nothing was recorded, and the run waits."), figure: null, here: null };
      }
      const waiting = answer.later ? "Waiting until you decide…" : "Waiting for an answer on another device…";
      if (!(await this.#waitElsewhere(request, shown, signal, waiting))) return { id: request.id, ok: false, reason: "aborted" };
    }
  }

  // #waitElsewhere keeps the request's note, link and QR code in view until
  // the person asks for the dialog again (true) or the run goes on (false).
  #waitElsewhere(request, shown, signal, waiting = "Waiting for an answer on another device…") {
    this.#setBusy(true, waiting);
    return new Promise((resolve) => {
      if (signal?.aborted) return resolve(false);
      const here = document.createElement("button");
      here.type = "button";
      here.className = "answer-here";
      here.setAttribute("part", "answer-here");
      here.textContent = "Answer here";
      const done = (again) => {
        signal?.removeEventListener("abort", onAbort);
        here.remove();
        if (shown.here === here) shown.here = null;
        resolve(again);
      };
      const onAbort = () => done(false);
      here.addEventListener("click", () => {
        this.#setBusy(true, waitingStatus(request));
        done(true);
      });
      signal?.addEventListener("abort", onAbort);
      shown.here = here;
      shown.note.attach(here);
      (shown.figure ?? here).scrollIntoView({ block: "nearest" });
      here.focus({ preventScroll: true }); // the dialog gave focus back to the page: keep it on the way back
    });
  }

  // #showRecorded writes the decision a durable run recorded on the call's
  // line ("approved on another device" when it was given elsewhere) and
  // marks the request's note answered: its link is used.
  #showRecorded(request, decision, { elsewhere = false } = {}) {
    const d = decision?.decision;
    const where = elsewhere ? " on another device" : "";
    if (d === "edited" && decision.args) {
      this.#showAnswer(request, { ok: true, data: { args: decision.args } }, where);
    } else {
      // What the run recorded, in the line's words (outcome.mjs): approved,
      // declined; for a lost outcome happened, ran again or not done.
      this.#showAnswer(request, null, where, (decisionLabel(d) || "answered").toLowerCase());
    }
    const n = this.#notes.get(request?.id);
    if (!n) return;
    const what = (decisionLabel(d) || "answered").toLowerCase();
    n.note.relabel("Note · answered");
    n.note.rewrite(`${what[0].toUpperCase()}${what.slice(1)}${where || " here"}. The approval link is used: ${n.url}`);
  }

  // #showAnswer writes how the person answered an approval on the call's
  // line — approved, declined, or approved with edited arguments (then the
  // arguments that run, with the model's below) — or keeps it for the line
  // when that is shown later (a remote run shows calls once they finished).
  // where says where it was answered (" on another device"); label, when
  // set, replaces the answer's own.
  #showAnswer(request, answer, where = "", label = "") {
    const data = request?.data ?? {};
    if (typeof data.tool !== "string" || typeof data.callId !== "string") return;
    const edited = answer?.ok && answer.data?.args;
    const shown = {
      who: `Tool call · ${label || answerLabel(answer, request).toLowerCase()}${where}`,
      text: edited ? `${data.tool} ${compact(answer.data.args)}\n(the model asked for ${compact(data.args)})` : "",
    };
    const line = this.#callLines.get(data.callId);
    if (!line) return void this.#answered.set(data.callId, shown);
    line.relabel(shown.who);
    if (shown.text) line.rewrite(shown.text);
  }

  // #callEntry shows a tool call's line, labelled with its answer when one
  // was given before the line could be shown.
  #callEntry(id, name, args) {
    const shown = typeof id === "string" ? this.#answered.get(id) : undefined;
    if (shown) this.#answered.delete(id);
    const text = shown?.text || (args === undefined ? String(name ?? "") : `${name} ${compact(args)}`);
    const line = this.#entry("tool-call", shown?.who ?? "Tool call", text, false, id);
    const decided = typeof id === "string" ? this.#decided.get(id) : undefined;
    if (decided) {
      this.#decided.delete(id);
      this.#showDecision(decided);
    }
    return line;
  }

  // #showDecision writes a decision of the record on its call's line: which
  // rule allowed or denied it, which earlier "allow for this conversation"
  // approved it (with Revoke), or that an approval allowed its tool for the
  // rest of the conversation (with Revoke); a revocation updates every line
  // of the grant. A decision about a call whose line is not shown yet waits
  // for it (#callEntry).
  #showDecision(entry) {
    if (!entry || typeof entry !== "object") return;
    const where = this.endpoint ? "run" : "conversation";
    if (entry.decision === "revoked") {
      const grant = this.#grants.get(entry.request);
      for (const n of grant?.notes ?? []) {
        n.revoke?.remove();
        n.note.textContent = decisionNote(entry, { where });
      }
      this.#grants.delete(entry.request);
      return;
    }
    if (entry.grant) this.#grants.set(entry.request, { entry, notes: [] });
    const granting = entry.grantedBy ? this.#grants.get(entry.grantedBy) : null;
    const text = decisionNote(entry, { granting: granting?.entry, where });
    if (!text || typeof entry.call !== "string") return;
    const line = this.#callLines.get(entry.call);
    if (!line) return void this.#decided.set(entry.call, entry);
    if (entry.grantedBy) line.relabel("Tool call · approved by your earlier decision");
    else if (entry.decision === "allowed") line.relabel("Tool call · allowed by a rule");
    else if (entry.decision === "denied") line.relabel("Tool call · denied by a rule");
    const note = document.createElement("p");
    note.className = "decision";
    note.setAttribute("part", "decision");
    note.textContent = text;
    const grant = this.#grants.get(entry.grant ? entry.request : entry.grantedBy);
    let revoke = null;
    if (grant) {
      revoke = document.createElement("button");
      revoke.type = "button";
      revoke.className = "revoke";
      revoke.setAttribute("part", "revoke");
      revoke.textContent = "Revoke";
      const id = grant.entry.request;
      revoke.addEventListener("click", () => this.#revoke(id, grant.entry.run).catch(() => {}));
      grant.notes.push({ note, revoke });
    }
    line.attach(note);
    if (revoke) line.attach(revoke);
  }

  // #revoke takes back an "allow for this conversation" (a durable run's
  // "allow for this run"): later calls of its tool ask again.
  async #revoke(id, run) {
    const engine = this.#engine;
    const ready = engine && await engine.promise.catch(() => null);
    if (!ready?.revoke) return;
    const entry = await ready.revoke(this.endpoint ? run : this.#conversation, id);
    // A local revocation is a decision too (onDecision may have shown it); a
    // durable run's reaches the page as its "decision" event, or here.
    if (entry && this.#grants.has(id)) this.#showDecision(entry);
    this.#emit("toolnexus:revoked", { grant: id, decision: entry });
  }

  // #showWaiting says a durable run's request can be answered through its
  // link (a link, for this visit), and shows the link's QR code beside it
  // while the request waits (#waitFor's finally removes it: a used link is
  // no use to a phone).
  #showWaiting(url, request) {
    const note = this.#entry("note", "Note", `Waiting for approval — open this link on another device: ${url}`);
    const id = request?.id;
    if (typeof id !== "string" || !/^https?:\/\//i.test(String(url))) return;
    note.link(String(url));
    this.#notes.set(id, { note, url: String(url) });
    const shown = { figure: null, done: false, note, here: null };
    this.#qrs.get(id)?.figure?.remove();
    this.#qrs.set(id, shown);
    qrModule().then(({ qrSVG }) => {
      if (shown.done || this.#qrs.get(id) !== shown) return;
      const svg = qrSVG(String(url), { label: "QR code of the approval link" });
      const caption = document.createElement("figcaption");
      caption.textContent = "Scan with a phone to approve there.";
      shown.figure = document.createElement("figure");
      shown.figure.className = "qr";
      shown.figure.setAttribute("part", "qr");
      shown.figure.append(svg, caption);
      note.attach(shown.figure);
    }).catch(() => {}); // no QR code (lean-qr.mjs missing, a link too long): the link is there
  }

  #askDialog(request, opts) {
    // In remote mode the agent's own tools run in the Worker: the dialog says where.
    let agent = "";
    if (this.endpoint) {
      try { agent = `the agent at ${new URL(this.endpoint, document.baseURI).host}`; } catch { agent = "the remote agent"; }
    }
    if (!this.#ask || this.#ask.agent !== agent) {
      // "Allow for this conversation" (a durable run on the Worker: "for this run").
      const allowFor = this.endpoint ? "run" : "conversation";
      const ask = loadDialog().then(({ approvalDialog }) => approvalDialog({ agent, allowFor }));
      this.#ask = { agent, ask: (req, o) => ask.then((dialog) => dialog(req, o)) };
    }
    return this.#ask.ask(request, opts);
  }

  // #onEvent shows a streamed run as it happens: text grows in one entry per
  // model turn, tool calls and results appear as they start and finish.
  #onEvent(e, live, seen) {
    switch (e?.type) {
      case "text":
        if (!e.delta) return;
        if (!live.entry) live.entry = this.#entry("assistant", "Assistant", "");
        live.entry.append(e.delta);
        live.text = true;
        this.#ui.log.scrollTop = this.#ui.log.scrollHeight;
        return;
      case "tool_call":
        live.entry = null;
        live.args.set(e.id, e.args);
        this.#callEntry(e.id, e.name, e.args);
        return;
      case "tool_result": {
        live.entry = null;
        if (seen.has(e.id)) return;
        seen.add(e.id);
        if (!live.args.has(e.id) && !this.#callLines.has(e.id)) this.#callEntry(e.id, e.name);
        const view = resultView(e);
        this.#entry(view.kind, view.who, view.text, view.isError);
        let args = e.edited ? e.args : live.args.get(e.id);
        try { args = JSON.parse(args); } catch { /* keep the text */ }
        this.#emit("toolnexus:tool-call", { id: e.id, name: e.name, args, output: e.output ?? "", isError: !!e.isError,
          edited: !!e.edited, declined: view.kind === "declined" });
        return;
      }
      default:
        live.entry = null;
    }
  }

  // #showToolCalls adds the calls of result not shown yet; shown (a Map keyed
  // by call id) lists calls whose call line is already in the transcript.
  #showToolCalls(result, seen, shown = new Map()) {
    for (const call of result?.toolCalls ?? []) {
      const key = call.id || `${call.name} ${compact(call.args)} ${seen.size}`;
      if (seen.has(key)) continue;
      seen.add(key);
      if (!shown.has(call.id) && !this.#callLines.has(call.id)) this.#callEntry(call.id, call.name, call.args);
      const view = resultView(call);
      this.#entry(view.kind, view.who, view.text, view.isError);
      this.#emit("toolnexus:tool-call", { id: call.id, name: call.name, args: call.args, output: call.output, isError: !!call.isError,
        edited: !!call.edited, declined: view.kind === "declined" });
    }
  }

  #setBusy(on, text = "") {
    const { log, send, status, input } = this.#ui;
    const hadFocus = this.shadowRoot.activeElement != null;
    this.#busy = on;
    // A focused Send button that becomes disabled would drop focus to the
    // body, and the dialog would then give it back there: keep it in the element.
    if (on && this.shadowRoot.activeElement === send) input.focus();
    this.toggleAttribute("busy", on);
    log.setAttribute("aria-busy", String(on));
    send.disabled = on;
    status.textContent = text;
    // Give the textbox back after a run (the dialog returns focus to the host).
    if (!on && (hadFocus || document.activeElement === this)) input.focus();
  }

  // #entry appends one transcript line; text goes through textContent only.
  // It returns a handle whose append(text) grows the line (streamed text)
  // and whose relabel(who) and rewrite(text) change it. A tool call's line is
  // kept under its callId (#callLines), in the saved view too.
  #entry(kind, who, text, isError = false, callId = undefined) {
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
    // A tool's text is shown clipped: laying out one unbroken megabyte takes
    // the browser seconds, and nobody reads it in a chat.
    const clip = (s) => kind.startsWith("tool") && s.length > 8000 ? `${s.slice(0, 8000)}… (${s.length - 8000} more characters not shown)` : s;
    body.textContent = clip(String(text));
    div.append(label, body);
    this.#ui.log.append(div);
    this.#resized.observe(div);
    this.#ui.log.scrollTop = this.#ui.log.scrollHeight;
    const view = { kind, who, text: String(text), isError: !!isError };
    if (typeof callId === "string" && callId) view.callId = callId;
    if (kind !== "error") this.#view.push(view); // errors are about this visit, not the conversation
    const handle = {
      append(more) {
        body.textContent += more;
        view.text += more;
      },
      relabel(text) {
        label.textContent = text;
        view.who = text;
      },
      rewrite(text) {
        body.textContent = clip(String(text));
        view.text = String(text);
      },
      // attach shows node in the line for this visit only (not saved).
      attach: (node) => {
        div.append(node);
        this.#ui.log.scrollTop = this.#ui.log.scrollHeight;
      },
      // link makes url, where the text has it, a link that opens in a new
      // tab (for this visit; the saved view keeps the text). Only http(s).
      link(url) {
        const text = body.textContent;
        const i = text.lastIndexOf(url);
        if (i < 0 || !/^https?:\/\//i.test(url)) return;
        const a = document.createElement("a");
        a.href = url;
        a.target = "_blank";
        a.rel = "noopener noreferrer";
        a.setAttribute("part", "link");
        a.textContent = url;
        body.replaceChildren(text.slice(0, i), a, text.slice(i + url.length));
      },
    };
    if (view.callId && kind === "tool-call") this.#callLines.set(view.callId, handle);
    return handle;
  }

  #emit(type, detail) {
    this.dispatchEvent(new CustomEvent(type, { bubbles: true, composed: true, detail }));
  }
}

let storePromise = null; // the page's one browserStore(), loaded on first use
let qrPromise = null; // qr-code.mjs (and lean-qr), loaded when a run first waits on a link
const qrModule = () => (qrPromise ??= import("./qr-code.mjs").catch((err) => { qrPromise = null; throw err; }));
let durablePromise = null; // durable-wait.mjs, loaded by the first persisting element
let journalPromise = null; // browser-journal.mjs, loaded by the first local persisting element
const journalModule = () => (journalPromise ??= import("./browser-journal.mjs").catch((err) => { journalPromise = null; throw err; }));

function closeEngine(engine) {
  engine.promise.then((e) => e.close(), () => {});
}

function compact(v) {
  if (typeof v === "string") {
    try { v = JSON.parse(v); } catch { return v; }
  }
  try { return JSON.stringify(v ?? {}); } catch { return String(v); }
}

// newConversationID names a conversation of the element: its "allow for this
// conversation" grants hold there (core/approval).
function newConversationID() {
  const b = new Uint8Array(8);
  globalThis.crypto.getRandomValues(b);
  return `conv_${Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("")}`;
}
