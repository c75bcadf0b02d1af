// toolnexus.mjs — the ES module users import. It starts the Go wasm once and
// wraps the low-level api (see jsbridge/doc.go) in a friendlier JS surface:
// objects in and out instead of JSON text, Errors that keep the partial run.
//
//   import { load } from "./toolnexus.mjs";
//   const tnx = await load();
//   const tk = await tnx.createToolkit({ tools: [tnx.defineTool({ name: "add", run: ({a, b}) => String(a + b) })] });
//   const client = await tnx.createClient({ baseURL, model, apiKey, waitFor: tnx.approvalDialog() });
//   const result = await client.run("add 2 and 3", tk);
//
// Works in browsers and in Node 20 (pass the wasm as bytes, a path or a file: URL),
// from dist/web by relative path or bundled from the npm package (dist/npm).

import { approvalDialog } from "./approval-dialog.mjs";
import { bridgeHost } from "./bridge-host.mjs";
import { agentsApi } from "./agents-api.mjs";
import { readWasmFile } from "./wasm-file.mjs";
import { wasmURL } from "./wasm-urls.mjs";

let booted = null; // memoised Promise<api>: the Go runtime is started once per realm
let keeper = { enter() {}, leave() {} }; // Node only: see keepAliveWhileBusy

/**
 * Start the wasm (once) and resolve to the JS API. wasm defaults to the
 * default build beside this module (wasmURL(); wasmURL("tools") is the tools build).
 * @param {{wasm?: string|URL|Uint8Array|ArrayBuffer|Response|Promise<Response>}} [opts]
 */
export function load({ wasm } = {}) {
  if (!booted) {
    booted = boot(wasm).then(wrapApi);
    // A failed boot may be retried (e.g. a transient network error).
    booted.catch(() => { booted = null; });
  }
  return booted;
}

async function boot(wasm) {
  // The download starts before wasm_exec.js is imported: the two overlap.
  const source = startFetch(wasm ?? wasmURL());
  source.catch?.(() => {}); // awaited by instantiate; a failed import must not leave it unhandled
  if (typeof globalThis.Go !== "function") {
    // wasm_exec.js is Go's script that defines globalThis.Go; importing it
    // runs it. A literal specifier, so a bundler takes it into the bundle
    // (a chunk of its own) instead of leaving a path to fetch at run time.
    await import("./wasm_exec.js");
  }
  const go = new globalThis.Go();
  keeper = keepAliveWhileBusy(go);
  const instance = await instantiate(await source, go.importObject);
  if (typeof performance !== "undefined" && performance.mark) performance.mark("toolnexus:wasm-loaded");
  keeper.enter();
  return new Promise((resolve, reject) => {
    // The host of jsbridge's narrow boundary (bridge-host.mjs); Go reads it
    // when its package variables are set, before main.
    globalThis.__toolnexusHost = bridgeHost(go);
    globalThis.__toolnexusBoot = (api) => {
      delete globalThis.__toolnexusBoot;
      delete globalThis.__toolnexusHost;
      keeper.leave();
      resolve(api);
    };
    // Not awaited: run() settles only when the Go program exits, which it never
    // should; if it does before booting, report that instead of hanging.
    go.run(instance).then(
      () => reject(new Error("toolnexus: the wasm exited before it was ready")),
      reject,
    );
  });
}

// startFetch begins getting the wasm: a Promise of its bytes (Node, from a
// file) or of its Response (fetched); bytes and Responses pass through.
async function startFetch(source) {
  if (typeof source === "string" || source instanceof URL) {
    const url = toURL(source);
    if ((url && url.protocol === "file:") || (!url && isNode())) {
      // Node: fetch() cannot read files, so read the bytes from disk.
      return readWasmFile(url ?? source);
    }
    return fetch(url ?? source);
  }
  return source;
}

async function instantiate(source, importObject) {
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) {
    return (await WebAssembly.instantiate(source, importObject)).instance;
  }
  const response = await source;
  if (!response.ok) throw new Error(`toolnexus: loading the wasm failed: HTTP ${response.status}`);
  // Streaming compilation straight from the fetched Response: the engine
  // compiles while the bytes arrive, and a cacheable response lets a repeat
  // visit reuse the compiled code. It needs the application/wasm type; a
  // server that sends another gets the bytes compiled instead (no clone of
  // the body kept aside just in case).
  const type = response.headers?.get?.("content-type") ?? "";
  if (WebAssembly.instantiateStreaming && /^application\/wasm\s*(;|$)/i.test(type)) {
    return (await WebAssembly.instantiateStreaming(response, importObject)).instance;
  }
  return (await WebAssembly.instantiate(await response.arrayBuffer(), importObject)).instance;
}

// keepAliveWhileBusy: after a call, Go's runtime can leave an idle wake-up
// setTimeout behind (as long as its longest timer, e.g. an already cancelled
// 60 s tool timeout). In Node that timer alone keeps the process alive after
// the last call has settled. So Go's timers are unref'd while no call is in
// flight and ref'd while one is. It relies on wasm_exec.js internals and
// turns itself off when they are not there (the process then just lingers).
function keepAliveWhileBusy(go) {
  const timers = go._scheduledTimeouts;
  const imports = go.importObject?.gojs;
  const key = "runtime.scheduleTimeoutEvent";
  if (!isNode() || !(timers instanceof Map) || typeof imports?.[key] !== "function") return keeper;
  let busy = 0;
  const setRef = (ref) => {
    for (const t of timers.values()) (ref ? t?.ref : t?.unref)?.call(t);
  };
  const schedule = imports[key];
  imports[key] = (sp) => {
    schedule(sp);
    if (busy === 0) setRef(false);
  };
  // While a call is in flight the process must stay alive even when Go has
  // no timer pending (it may be waiting on a promise whose own timer is
  // unref'd, like AbortSignal.timeout's): hold a handle of our own.
  let hold = null;
  return {
    enter() {
      if (busy++ === 0) {
        setRef(true);
        hold = setInterval(() => {}, 2 ** 30);
      }
    },
    leave() {
      if (--busy === 0) {
        setRef(false);
        clearInterval(hold);
        hold = null;
      }
    },
  };
}


// toURL parses absolute URLs; a bare path (Node) returns null.
function toURL(s) {
  if (s instanceof URL) return s;
  try { return new URL(s); } catch { /* not absolute */ }
  if (typeof location !== "undefined") return new URL(s, location.href);
  return null;
}

function isNode() {
  return typeof process !== "undefined" && !!process.versions?.node;
}

// wrapApi builds the public API over the low-level one.
function wrapApi(api) {
  return Object.freeze({
    version: api.version,
    // createAgent, createRuntime, restoreRuntime (agents-api.mjs; the tools build).
    ...agentsApi(api, call),
    defineTool,
    relayTool,
    httpTool,
    answerOutput,
    answerDeclined,
    answerOutcome,
    answerRunAgain,
    relayAnswer,
    approvalDialog,
    // createToolkit({tools, variables?, fetch?}) or createToolkit([...tools]):
    // variables fill ${NAME} in http tool headers; fetch carries http tool requests.
    // createToolkit({tools, variables, fetch, mcpServers, a2aAgents, waitFor, builtins, skills}):
    // every option is handed to Go as is (see jsbridge/doc.go). mcpServers,
    // a2aAgents, builtins, skills and files need toolnexus-tools.wasm; the
    // default build rejects them with an error that says so.
    // approvalRules decide each call before it runs (first match wins);
    // onDecision(entry) sees each decision as the toolkit's record chains it.
    async createToolkit(options = {}) {
      const opts = Array.isArray(options) ? { tools: options } : { ...options, tools: options.tools ?? [] };
      if (typeof opts.onDecision === "function") {
        const onDecision = opts.onDecision;
        opts.onDecision = (text) => onDecision(JSON.parse(text));
      }
      return wrapToolkit(await call(() => api.createToolkit(clientOptions(opts))));
    },
    /**
     * Check a decision record (entries, or their JSON Lines): every hash, every
     * link, and with head that nothing was cut from its end. Resolves to
     * {ok: true, count, head} or {ok: false, index, seq, error} naming the first
     * entry changed or removed.
     */
    async verifyDecisions(record, { head } = {}) {
      const text = typeof record === "string" ? record : (record ?? []).map((e) => JSON.stringify(e)).join("\n");
      return JSON.parse(await call(() => api.verifyDecisions(text, head ?? "")));
    },
    async createClient(options = {}) {
      return wrapClient(await call(() => api.createClient(clientOptions(options))));
    },
  });
}

// clientOptions drops undefined values so Go sees only what was set.
function clientOptions(o) {
  const out = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined && v !== null) out[k] = v;
  return out;
}

function wrapToolkit(tk) {
  return Object.freeze({
    raw: tk, // the low-level handle the client passes back to Go
    // An empty toolkit's list crosses as null (a nil Go slice): always an array.
    tools: async () => (await call(() => tk.tools())) ?? [],
    execute: (name, args = {}) => call(() => tk.execute(name, args)),
    /** Per MCP server: {status: "connected"|"disabled"|"failed", error?, tools?}. */
    mcpStatus: () => (typeof tk.mcpStatus === "function" ? call(() => tk.mcpStatus()) : Promise.resolve({})),
    /** Per A2A agent of a2aAgents: {status: "connected"|"disabled"|"failed", reason?, tools, card?}. */
    a2aStatus: () => (typeof tk.a2aStatus === "function" ? call(() => tk.a2aStatus()) : Promise.resolve({})),
    /** The built-in tools' virtual file system as {path: text} (toolnexus-tools.wasm). */
    files: () => (typeof tk.files === "function" ? call(() => tk.files()) : Promise.resolve({})),
    /** The system-prompt section listing the skills ("" without skills). */
    skillsPrompt: () => (typeof tk.skillsPrompt === "function" ? call(() => tk.skillsPrompt()) : Promise.resolve("")),
    /** {skills: [{name, description, path}], problems: [{path, error}]}. */
    skills: () => (typeof tk.skills === "function" ? call(() => tk.skills()) : Promise.resolve({ skills: [], problems: [] })),
    /** Every decision of this toolkit's runs — rules', grants', people's — in order, chained. */
    decisions: async () => (await call(() => tk.decisions())).split("\n").filter(Boolean).map((l) => JSON.parse(l)),
    /** The hash of the record's last entry ("" when empty): keep it apart to verify the record later. */
    decisionsHead: () => call(() => tk.decisionsHead()),
    /** The record as JSON Lines, one entry per line. */
    exportDecisions: () => call(() => tk.decisions()),
    /** The "allow for this conversation" grants of a conversation: [{id, tool, scope, args?, approver?}]. */
    grants: async (conversation) => JSON.parse(await call(() => tk.grants(String(conversation ?? "")))),
    /** Take back a grant: later calls ask again. Resolves to the revocation's entry, or null. */
    async revoke(conversation, grant, { approver = "in page" } = {}) {
      const text = await call(() => tk.revoke(String(conversation ?? ""), String(grant ?? ""), approver));
      return text ? JSON.parse(text) : null;
    },
    close: () => call(() => tk.close()),
  });
}

function wrapClient(c) {
  return Object.freeze({
    /**
     * Run to the end. signal (an AbortSignal) aborts the in-flight fetch;
     * conversation names the conversation its "allow for this conversation"
     * grants live in (without one, the run's own).
     * With journal ({load, record}: browserJournal() from
     * browser-journal.mjs, or your own) each step is recorded before it
     * takes effect, and a journal that holds a run already is continued
     * instead of starting another (see continue).
     */
    async run(prompt, toolkit, { history, signal, journal, conversation } = {}) {
      const h = history == null ? undefined : JSON.stringify(history);
      const tk = rawToolkit(toolkit);
      if (journal != null) return parseResult(await call(() => c.runJournal(tk, journal, signal, undefined, String(prompt), h, conversation)));
      return parseResult(await call(() => c.run(String(prompt), tk, h, signal, conversation)));
    },
    /**
     * Stream a run: an async iterator of events ({type: "text", delta},
     * "tool_call", "tool_result", "pending", "usage"), ending with
     * {type: "done", result}. A failed run throws from the iterator.
     * journal as for run.
     */
    stream(prompt, toolkit, { history, signal, journal, conversation } = {}) {
      const h = history == null ? undefined : JSON.stringify(history);
      const tk = rawToolkit(toolkit);
      if (journal != null) return events((onEvent) => c.runJournal(tk, journal, signal, onEvent, String(prompt), h, conversation));
      return events((onEvent) => c.stream(String(prompt), tk, h, signal, onEvent, conversation));
    },
    /**
     * Go on with the run journal holds — after a crash, a reload, or a halt
     * — from its last recorded step: a recorded reply or outcome is used as
     * recorded, a model call in flight is made again, and an approved call
     * that began without a recorded outcome runs again only if its tool is
     * idempotent; otherwise the run asks (waitFor) or halts with a request
     * of kind "outcome_unknown". answer, when given, is recorded first: the
     * answer to the request a run without waitFor halted on.
     */
    async continue(toolkit, journal, { signal, answer, conversation } = {}) {
      const a = answer == null ? undefined : JSON.stringify(answer);
      return parseResult(await call(() => c.continueJournal(rawToolkit(toolkit), journal, signal, undefined, a, conversation)));
    },
    /** continue as an async iterator of events, like stream (only the steps it takes). */
    streamContinue(toolkit, journal, { signal, answer, conversation } = {}) {
      const a = answer == null ? undefined : JSON.stringify(answer);
      const tk = rawToolkit(toolkit);
      return events((onEvent) => c.continueJournal(tk, journal, signal, onEvent, a, conversation));
    },
    /** runWithAnswer as an async iterator of events, like stream. */
    streamWithAnswer(toolkit, messages, pending, answer, { signal, conversation } = {}) {
      return events((onEvent) => c.streamWithAnswer(rawToolkit(toolkit), JSON.stringify(messages ?? []),
        JSON.stringify(pending), JSON.stringify(answer), signal, onEvent, conversation));
    },
    async runWithAnswer(toolkit, messages, pending, answer, { signal, conversation } = {}) {
      const text = await call(() => c.runWithAnswer(rawToolkit(toolkit),
        JSON.stringify(messages ?? []), JSON.stringify(pending), JSON.stringify(answer), signal, conversation));
      return parseResult(text);
    },
    /** One provider call, no loop: OpenAI-shaped {messages, tools?, model?} in and out. */
    async translate(request, { signal } = {}) {
      return parseResult(await call(() => c.translate(JSON.stringify(request), signal)));
    },
    /**
     * A conversation: its transcript stays in the wasm between runs, so a
     * follow-up prompt crosses the boundary alone. Its results have no
     * messages; conv.messages() returns the transcript when asked.
     *   const conv = client.conversation({ history });   // history optional
     *   await conv.run("hi", tk); await conv.run("and then?", tk);
     */
    conversation({ history, id } = {}) {
      const h = history == null ? undefined : JSON.stringify(history);
      // Its grants ("allow for this conversation") live under this id.
      const convID = id ? String(id) : `conv_${newID()}`;
      let handle = null; // made on first use
      const raw = () => (handle ??= call(() => c.conversation(h, convID)).catch((e) => { handle = null; throw e; }));
      const answerText = (answer) => JSON.stringify(answer);
      return Object.freeze({
        id: convID,
        /** Run a prompt on the conversation (one run at a time). */
        async run(prompt, toolkit, { signal } = {}) {
          const tk = rawToolkit(toolkit), cv = await raw();
          return parseResult(await call(() => cv.run(String(prompt), tk, signal)));
        },
        /** stream, on the conversation. */
        stream(prompt, toolkit, { signal } = {}) {
          const tk = rawToolkit(toolkit);
          return events(async (onEvent) => (await raw()).stream(String(prompt), tk, signal, onEvent));
        },
        /** Resume the conversation's halted run (result.status "pending") with an Answer. */
        async runWithAnswer(toolkit, answer, { signal } = {}) {
          const tk = rawToolkit(toolkit), cv = await raw();
          return parseResult(await call(() => cv.runWithAnswer(tk, answerText(answer), signal)));
        },
        streamWithAnswer(toolkit, answer, { signal } = {}) {
          const tk = rawToolkit(toolkit);
          return events(async (onEvent) => (await raw()).streamWithAnswer(tk, answerText(answer), signal, onEvent));
        },
        /** The transcript so far (the history, then every completed run). */
        async messages() {
          const cv = await raw();
          return JSON.parse(await call(() => cv.messages()));
        },
        /** Release the conversation; it cannot be used afterwards. */
        close: async () => { if (handle) { const cv = await handle; await call(() => cv.close()); } },
      });
    },
    /** The client's counters in the Prometheus text format. */
    metrics: () => call(() => c.metrics()),
    /** Release the client; it cannot be used afterwards. */
    close: () => call(() => c.close()),
  });
}

// events turns a low-level streaming call (which reports each event to a
// callback and resolves with the result) into an async iterator ending with
// {type: "done", result}; a failed run throws from the iterator.
function events(start) {
  const queue = [];
  let wake = null;
  const push = (item) => { queue.push(item); wake?.(); wake = null; };
  call(() => start((e) => push({ event: JSON.parse(e) })))
    .then((text) => push({ event: { type: "done", result: parseResult(text) }, last: true }),
      (err) => push({ error: err, last: true }));
  return (async function* iterate() {
    for (;;) {
      if (queue.length === 0) await new Promise((r) => { wake = r; });
      const item = queue.shift();
      if (item.error) throw item.error;
      yield item.event;
      if (item.last) return;
    }
  })();
}

function rawToolkit(tk) {
  if (!tk || !tk.raw) throw new TypeError("toolnexus: expected a toolkit from createToolkit()");
  return tk.raw;
}

function parseResult(text) {
  return typeof text === "string" ? JSON.parse(text) : text;
}

// call awaits a low-level call and rethrows rejections as an Error that keeps
// the message and the partial RunResult (err.result) when Go supplied one.
async function call(fn) {
  keeper.enter();
  try {
    return await fn();
  } catch (e) {
    const err = new Error(e?.message ?? String(e), { cause: e });
    if (e && typeof e.resultJSON === "string" && e.resultJSON) {
      try { err.result = JSON.parse(e.resultJSON); } catch { /* keep the message */ }
    }
    throw err;
  } finally {
    keeper.leave();
  }
}

// newID is 64 random bits in hex, for a conversation's id.
function newID() {
  const b = new Uint8Array(8);
  globalThis.crypto.getRandomValues(b);
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}

// approvalMark keeps needsApproval: "always" (asked whatever a rule or a
// grant says) and reads anything else as a boolean.
function approvalMark(needsApproval) {
  return needsApproval === "always" ? "always" : !!needsApproval;
}

/**
 * A tool whose run(args, ctx) is a JS (async) function. needsApproval: true,
 * false or "always" (every call asks, whatever a rule or a grant says).
 * idempotent: running a call again with the same ctx.idempotencyKey does no
 * more than running it once, so a journaled run cut off while an approved
 * call ran runs it again instead of asking whether it happened.
 */
export function defineTool({ name, description = "", inputSchema, run, needsApproval = false, idempotent = false, source } = {}) {
  if (!name) throw new TypeError("toolnexus: defineTool needs a name");
  if (typeof run !== "function") throw new TypeError(`toolnexus: tool ${name} needs a run function`);
  const spec = { name, description, inputSchema: inputSchema ?? emptySchema(), needsApproval: approvalMark(needsApproval), run };
  if (idempotent) spec.idempotent = true;
  if (source) spec.source = source;
  return spec;
}

/** A tool the host executes: the run halts with a relay request. */
export function relayTool(nameOrSpec, description = "", inputSchema) {
  const s = typeof nameOrSpec === "object" ? nameOrSpec : { name: nameOrSpec, description, inputSchema };
  if (!s.name) throw new TypeError("toolnexus: relayTool needs a name");
  return { name: s.name, description: s.description ?? "", inputSchema: s.inputSchema ?? emptySchema(), relay: true };
}

/**
 * A tool the core executes as an HTTP request (see jsbridge/doc.go):
 * http = {method?, url, headers?, query?: [argName], body?, timeoutMs?}.
 * idempotent: the endpoint honours Idempotency-Key, which every attempt of
 * a call then sends ("<run id>:<call id>"), and a journaled run cut off
 * during a call retries it rather than asking whether it happened.
 */
export function httpTool({ name, description = "", inputSchema, http, needsApproval = false, idempotent = false } = {}) {
  if (!name) throw new TypeError("toolnexus: httpTool needs a name");
  if (!http || !http.url) throw new TypeError(`toolnexus: http tool ${name} needs http.url`);
  const spec = { name, description, inputSchema: inputSchema ?? emptySchema(), needsApproval: approvalMark(needsApproval), http };
  if (idempotent) spec.idempotent = true;
  return spec;
}

function emptySchema() {
  return { type: "object", properties: {} };
}

/** The Answer that resumes a suspended request with an output. */
export function answerOutput(id, output) {
  return { id, ok: true, data: { output } };
}

/** The Answer for a refusal: no data, reason defaults to "declined". */
export function answerDeclined(id, reason) {
  return { id, ok: false, reason: reason || "declined" };
}

/**
 * The Answer to a request of kind "outcome_unknown" (a call that was
 * running when its run stopped): it happened, and output is its result as
 * the model will read it.
 */
export function answerOutcome(id, output = "") {
  return { id, ok: true, data: { outcome: "happened", output: String(output ?? "") } };
}

/** The Answer to a request of kind "outcome_unknown": run the call again, as approved. */
export function answerRunAgain(id) {
  return { id, ok: true, data: { outcome: "rerun" } };
}

/** The Answer for a relay request carrying several calls: results = [{id, output, isError?}]. */
export function relayAnswer(id, results) {
  return { id, ok: true, data: { results: results.map((r) => ({ id: r.id, output: r.output, isError: !!r.isError })) } };
}

export { approvalDialog };
// wasmURL("tools"): the tools build beside this module, for load({wasm}) (a bundler emits it).
export { wasmURL };
// chatTransport({client, toolkit}): the AI SDK's ChatTransport over this runtime.
export { chatTransport } from "./chat-transport.mjs";
