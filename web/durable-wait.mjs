// durable-wait.mjs — an inline waitFor with a durable fallback.
//
// A tool call that needs a person's answer waits inline (the dialog is open,
// the run is alive in memory). If the answer has not come when the page is
// hidden (visibilitychange → hidden), unloaded (pagehide), or when the time
// limit passes, the run is halted instead: the wrapper aborts the run through
// the AbortSignal it owns, turns the cancelled run's partial result into the
// halted transcript a run without waitFor would have produced (placeholders
// "[toolnexus:pending <id>] …" for the waiting calls), and saves it with the
// pending request to the store. Later — on the next load, or when the page is
// visible again — the page shows the same request and resumes with
// client.runWithAnswer(toolkit, messages, pending, answer).
//
// The model never sees an answer the person did not give: a fallback halts
// the run, it does not decline. So does a person who leaves a question for
// later (ask resolves {later: true}: "Decide later" or Escape on a question
// about a call whose outcome was lost): the run halts with the question
// kept and saved (why LATER), and it comes back when the page offers it.
//
//   const dw = durableWait({ ask: approvalDialog(), store: browserStore(), id: "demo", limitMs: 300_000 });
//   const client = await tnx.createClient({ ...model, waitFor: dw.waitFor });
//   const result = await dw.run((signal) => client.stream(prompt, tk, { history, signal }), { onEvent });
//   if (result.status === "pending" && result.durable) … // saved; offer it again later
//
//   // next load:
//   const saved = await store.get("demo");
//   if (saved?.pending) {
//     const answer = await ask(saved.pending);
//     await dw.run((signal) => client.runWithAnswer(tk, saved.messages, saved.pending, answer, { signal }));
//   }
//
// Caveats:
// - The core rejects a run cancelled mid-wait with an error whose err.result
//   holds the transcript up to the assistant turn (no results for that turn)
//   and the finished calls in toolCalls; haltedRun() rebuilds the halted
//   transcript from those, in the OpenAI or Anthropic shape the core uses.
// - pagehide gives no time for anything asynchronous: the save is issued in
//   the same task as the abort (the Go runtime settles the cancelled run
//   synchronously, the rest are microtasks) and marked urgent, so the store
//   also writes it synchronously (web/store.mjs). A browser that tears the
//   page down before that loses only the waiting request, never the
//   conversation saved before it.

// The placeholders core writes for a halted turn (core/toolphase.go); resume
// recognises them by these exact texts.
export const pendingPlaceholder = (id) => `[toolnexus:pending ${id}] awaiting an answer; the tool has not run`;
export const NOT_RUN = "[toolnexus:not-run] the run halted before this call";

const UNLOADED = "page unloaded";
/** The why of a run halted because the page was hidden: it is offered again once the page is visible. */
export const HIDDEN = "page hidden";
/** The why of a run halted because the person left the question for later. */
export const LATER = "decided later";

/** The reason a wrapper halted a run instead of waiting on. */
export class HaltedWaitError extends Error {
  constructor(why) {
    super(`toolnexus: stopped waiting (${why}); the run is saved and can be resumed`);
    this.name = "AbortError";
    this.why = why;
  }
}

/**
 * @param {{ask: (request: object, opts?: {signal?: AbortSignal}) => Promise<object>,
 *   store?: {save: Function}, id?: string, limitMs?: number, extra?: () => object,
 *   document?: Document, window?: EventTarget}} options
 *   ask shows the request and resolves to the person's Answer (approvalDialog()).
 *   store and id: where a halted run is saved (store.save(id, messages, {...extra(), pending}, {urgent})).
 *   limitMs: how long to wait inline before halting (0 = no limit).
 *   extra: what else to save with the halted run (e.g. the rendered transcript).
 */
export function durableWait({ ask, store, id, limitMs = 0, extra = () => ({}),
  document: doc = globalThis.document, window: win = globalThis } = {}) {
  if (typeof ask !== "function") throw new TypeError("toolnexus: durableWait needs ask");
  let current = null; // the guarded run in flight: {ctrl, request, why}

  /** The waitFor to give createClient. Outside run() it simply asks. */
  async function waitFor(request, { signal } = {}) {
    const run = current;
    if (!run) return ask(request, { signal });
    const local = new AbortController(); // closes the dialog when we halt
    const halt = (why) => {
      if (run.why || run.settled) return;
      run.why = why;
      run.request = request;
      local.abort();
      run.ctrl.abort(new HaltedWaitError(why)); // the core stops waiting and rejects the run
    };
    const onVisibility = () => { if (doc?.visibilityState === "hidden") halt(HIDDEN); };
    const onPageHide = () => halt(UNLOADED);
    const onAbort = () => local.abort();
    signal?.addEventListener("abort", onAbort);
    doc?.addEventListener?.("visibilitychange", onVisibility);
    win?.addEventListener?.("pagehide", onPageHide);
    const timer = limitMs > 0 ? setTimeout(() => halt("time limit"), limitMs) : 0;
    try {
      if (doc?.visibilityState === "hidden") halt(HIDDEN); // nobody is looking now
      if (run.why) throw new HaltedWaitError(run.why);
      const answer = await ask(request, { signal: local.signal });
      if (run.why) throw new HaltedWaitError(run.why); // the dialog closed because we halted
      if (answer?.later) {
        halt(LATER); // not an answer: nothing is recorded, the run halts with the question kept
        throw new HaltedWaitError(LATER);
      }
      return answer;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      doc?.removeEventListener?.("visibilitychange", onVisibility);
      win?.removeEventListener?.("pagehide", onPageHide);
    }
  }

  /**
   * Run start(signal) under this wrapper. start returns a Promise<RunResult>
   * (client.run, client.runWithAnswer) or an async iterator of stream events
   * (client.stream), each passed to onEvent. Resolves to the RunResult; when
   * the wait was halted, to the halted result {status: "pending", messages,
   * pending, durable: true, why}, already saved. signal (optional) is the
   * caller's own cancel.
   */
  async function run(start, { onEvent, signal } = {}) {
    if (current) throw new Error("toolnexus: durableWait runs one run at a time");
    const ctrl = new AbortController();
    const me = { ctrl, request: null, why: "", settled: false };
    const onCallerAbort = () => ctrl.abort(signal.reason);
    if (signal?.aborted) ctrl.abort(signal.reason);
    signal?.addEventListener("abort", onCallerAbort);
    current = me;
    try {
      const out = start(ctrl.signal);
      if (out && typeof out[Symbol.asyncIterator] === "function") {
        let result = null;
        for await (const event of out) {
          if (event?.type === "done") result = event.result;
          else onEvent?.(event);
        }
        return result;
      }
      return await out;
    } catch (err) {
      if (!me.why) throw err;
      const halted = haltedRun(err?.result, me.request);
      if (!halted) {
        throw new Error(`toolnexus: the run stopped waiting (${me.why}) but its transcript could not be saved: ${err?.message ?? err}`, { cause: err });
      }
      const result = { ...err.result, ...halted, status: "pending", limit: "", durable: true, why: me.why };
      if (store && id != null) {
        let more = {};
        try { more = extra() ?? {}; } catch { /* save the run anyway */ }
        // Unloading leaves no time for an asynchronous write to finish: ask for a synchronous copy too.
        await store.save(id, result.messages, { ...more, pending: result.pending, why: me.why }, { urgent: me.why === UNLOADED });
      }
      return result;
    } finally {
      me.settled = true;
      signal?.removeEventListener("abort", onCallerAbort);
      if (current === me) current = null;
    }
  }

  return Object.freeze({ waitFor, run, get busy() { return current != null; } });
}

/**
 * haltedRun rebuilds what a run without waitFor returns when it halts on
 * request: the transcript ending with the assistant turn and one result per
 * call (the finished ones from result.toolCalls, the pending placeholder for
 * the waiting ones, "not run" for the rest). Returns {messages, pending} or
 * null when result does not end in such a turn.
 */
export function haltedRun(result, request) {
  const messages = Array.isArray(result?.messages) ? [...result.messages] : null;
  if (!messages || messages.length === 0 || !request?.id) return null;
  // A core that halts a run cancelled mid-wait itself (status "pending",
  // pending set, placeholders written) needs no rebuilding.
  if (result.status === "pending" && result.pending?.id === request.id) return { messages, pending: result.pending };
  const last = messages[messages.length - 1];
  if (last?.role !== "assistant") return null; // the turn already has its results
  const anthropic = Array.isArray(last.content);
  const calls = anthropic
    ? last.content.filter((b) => b?.type === "tool_use").map((b) => ({ id: b.id, name: b.name }))
    : (last.tool_calls ?? []).map((c) => ({ id: c.id, name: c.function?.name }));
  if (calls.length === 0) return null;
  const done = new Map((result.toolCalls ?? []).map((c) => [c.id, c]));
  const waiting = waitingCalls(request, calls, done);
  if (waiting.size === 0) return null;
  const outcomes = calls.map((c) => {
    if (waiting.has(c.id)) return { id: c.id, content: pendingPlaceholder(request.id), isError: true };
    const rec = done.get(c.id);
    if (rec) return { id: c.id, content: String(rec.output ?? ""), isError: !!rec.isError };
    return { id: c.id, content: NOT_RUN, isError: true };
  });
  if (anthropic) {
    messages.push({
      role: "user",
      content: outcomes.map((o) => ({ type: "tool_result", tool_use_id: o.id, content: o.content, ...(o.isError ? { is_error: true } : {}) })),
    });
  } else {
    for (const o of outcomes) messages.push({ role: "tool", tool_call_id: o.id, content: o.content });
  }
  return { messages, pending: request };
}

// waitingCalls: the calls the request stands for. A relay request lists them
// in data.calls; an approval names its call in data.callId; any other
// suspension belongs to the first call of the turn that has not finished
// (calls run in order).
function waitingCalls(request, calls, done) {
  const ids = new Set(calls.map((c) => c.id));
  const data = request.data ?? {};
  if (Array.isArray(data.calls) && data.calls.length > 0) {
    return new Set(data.calls.map((c) => c?.id).filter((id) => ids.has(id)));
  }
  if (typeof data.callId === "string" && ids.has(data.callId)) return new Set([data.callId]);
  const first = calls.find((c) => !done.has(c.id));
  return new Set(first ? [first.id] : []);
}
