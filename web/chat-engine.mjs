// chat-engine.mjs — what <toolnexus-chat> talks to: the agent loop in the page
// (the wasm) or a toolnexus Worker over HTTP. Both engines expose
//
//   engine.run(prompt, history, {waitFor, onStep, onEvent, signal, journal}) → Promise<RunResult>
//   engine.resume(history, pending, answer, {waitFor, signal}) → Promise<RunResult>   (local only)
//   engine.continue(journal, answer, {waitFor, onStep, signal}) → Promise<RunResult>  (local only)
//   engine.revoke(conversation, grant) → Promise<object|null>   takes an "allow for this conversation" back
//   engine.close()
//
// waitFor(request) → Promise<Answer> asks the person; onStep(result) sees every
// RunResult as it arrives (a remote run that halts for approval yields two);
// onEvent(event), when given, makes a local run stream (client.stream) and sees
// each event — text deltas, tool_call, tool_result, pending — as it happens;
// signal (an AbortSignal) cancels a local run; journal (web/browser-journal.mjs)
// journals a local run, or continues the run it holds (issue 31), and
// continue goes on with a journaled run that halted, answer recorded first.
// conversation (a local run's) names where an approval's "allow for this
// conversation" holds; onDecision(entry) sees each decision of the record
// (core/approval) as it is made — a local run's from the toolkit, a durable
// run's from its "decision" events — and revoke takes a grant back (for a
// durable run, conversation is the run's id).
// No DOM here; importing it loads nothing (the wasm is fetched by localEngine).

import { linkBody } from "./outcome.mjs"; // also a static import of chat-element.mjs: no extra round trip

/**
 * The loop runs in this page. `wasm` is where the wasm lives; `demo` swaps in
 * the offline demo model and adds the demo tools after the page's own tools
 * (the first tool of a name wins, so a page may override a demo tool).
 * `stream` lets a run with onEvent stream from the provider (the provider
 * must answer stream:true with server-sent events); the demo model always can.
 */
export async function localEngine({ wasm, demo, baseURL, model, style, apiKey, systemPrompt, maxTurns, tools = [], variables, mcpServers, stream = false }) {
  if (!demo && !baseURL) throw new Error("toolnexus-chat: set the demo attribute, an endpoint, or base-url and model");
  const early = earlyFetch(wasm); // before toolnexus.mjs and its imports arrive
  const { load } = await import("./toolnexus.mjs");
  const tnx = await load({ wasm: early ?? wasm });
  const specs = [...tools];
  let modelOptions = { baseURL, model, style, apiKey };
  if (demo) {
    const [{ demoModel }, { demoTools }] = await Promise.all([import("./demo-model.mjs"), import("./demo-tools.mjs")]);
    const m = demoModel();
    modelOptions = { ...m, fetch: pacedFetch(m.fetch) };
    specs.push(...demoTools());
  }
  // Anthropic refuses browser calls unless the page opts in explicitly.
  const headers = modelOptions.style === "anthropic" ? { "anthropic-dangerous-direct-browser-access": "true" } : undefined;
  // waitFor is per run (it belongs to the element), so the client gets a trampoline.
  let current = null;
  const waitFor = (request, opts) => (current ? current(request, opts) : { id: request?.id, ok: false, reason: "no one to ask" });
  let decided = null; // the running step's onDecision, as waitFor's
  const onDecision = (entry) => decided?.(entry);
  // MCP servers from the JSON config; their elicitations use the same dialog.
  const toolkit = await tnx.createToolkit({ tools: specs, variables, mcpServers, waitFor, onDecision });
  let client;
  try {
    client = await tnx.createClient({ ...modelOptions, headers, systemPrompt, maxTurns, waitFor });
  } catch (err) {
    toolkit.close().catch(() => {});
    throw err;
  }
  const streams = !!(demo || stream);
  return {
    async run(prompt, history, { waitFor, onStep, onEvent, signal, journal, conversation, onDecision: seen }) {
      current = waitFor;
      decided = seen;
      try {
        let result;
        if (onEvent && streams) {
          for await (const event of client.stream(prompt, toolkit, { history, signal, journal, conversation })) {
            if (event.type === "done") result = event.result;
            else onEvent(event);
          }
        } else {
          result = await client.run(prompt, toolkit, { history, signal, journal, conversation });
        }
        onStep?.(result);
        return result;
      } finally {
        current = decided = null;
      }
    },
    async resume(history, pending, answer, { waitFor, onStep, signal, conversation, onDecision: seen }) {
      current = waitFor;
      decided = seen;
      try {
        const result = await client.runWithAnswer(toolkit, history, pending, answer, { signal, conversation });
        onStep?.(result);
        return result;
      } finally {
        current = decided = null;
      }
    },
    async continue(journal, answer, { waitFor, onStep, signal, conversation, onDecision: seen }) {
      current = waitFor;
      decided = seen;
      try {
        const result = await client.continue(toolkit, journal, { answer, signal, conversation });
        onStep?.(result);
        return result;
      } finally {
        current = decided = null;
      }
    },
    revoke: (conversation, grant) => toolkit.revoke(conversation, grant, { approver: "in page" }),
    close: () => toolkit.close().catch(() => {}),
  };
}

// earlyFetch starts the first local engine's wasm download at once, so it
// overlaps the import of toolnexus.mjs and its modules (two round trips in
// a row) instead of waiting for them. Later engines share the runtime the
// first one started (load() boots once), so they fetch nothing.
let fetched = false;
function earlyFetch(wasm) {
  if (fetched || typeof fetch !== "function" || !(wasm instanceof URL) || !/^https?:$/.test(wasm.protocol)) return null;
  fetched = true;
  const res = fetch(wasm);
  res.catch(() => {}); // load() awaits it and reports a failure
  return res;
}

/**
 * pacedFetch wraps a fetch whose server-sent-event replies arrive all at once
 * (the offline demo model builds each reply in memory) so that their events
 * arrive one by one, ms apart, as a real provider's would: the text visibly
 * streams. Other replies pass through untouched.
 */
export function pacedFetch(fetchFn, ms = 0) {
  return async (url, init) => {
    const res = await fetchFn(url, init);
    if (!(res.headers.get("content-type") ?? "").startsWith("text/event-stream") || !res.body) return res;
    const events = (await res.text()).split(/(?<=\n\n)/);
    const enc = new TextEncoder();
    const signal = init?.signal;
    const body = new ReadableStream({
      async pull(ctrl) {
        if (signal?.aborted) return ctrl.error(signal.reason ?? new DOMException("aborted", "AbortError"));
        const next = events.shift();
        if (next === undefined) return ctrl.close();
        await new Promise((r) => setTimeout(r, ms));
        ctrl.enqueue(enc.encode(next));
      },
    });
    return new Response(body, { status: res.status, headers: res.headers });
  };
}

/**
 * The loop runs in a toolnexus Worker at `endpoint`. When the Worker offers
 * durable runs (POST /v1/runs answers 202), the run lives there: its events
 * stream into the element, a halt asks the person here and names its
 * approveURL (onWaiting) so it can also be answered on another device, and
 * the run goes on live whichever answers first. Otherwise: POST /v1/run, and
 * while the result is "pending", ask the person and POST /v1/resume with the
 * sealed state. The provider key stays with the Worker; nothing secret is
 * sent from here.
 */
export function remoteEngine({ endpoint, fetch: rawFetch = globalThis.fetch.bind(globalThis), maxSteps = 16, durable = true }) {
  const base = new URL(String(endpoint).replace(/\/*$/, "/"), globalThis.document?.baseURI);
  const fetchFn = explainedFetch(rawFetch, base);
  const post = async (path, body) => {
    const res = await fetchFn(new URL(path, base), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    let json = null;
    try { json = JSON.parse(text); } catch { /* reported below */ }
    if (!res.ok) {
      const why = json?.error?.message ?? text.slice(0, 200);
      throw new Error(`toolnexus-chat: ${path} answered HTTP ${res.status}: ${why}`);
    }
    if (!json || typeof json !== "object") throw new Error(`toolnexus-chat: ${path} did not answer JSON`);
    return json;
  };
  // Durable runs (POST /v1/runs) when the Worker offers them: a Worker
  // without them answers 404 or 503, and the stateless routes serve.
  let offered = durable;
  return {
    async run(prompt, history, opts) {
      if (offered) {
        const res = await fetchFn(new URL("v1/runs", base), {
          method: "POST", headers: { "content-type": "application/json" },
          body: JSON.stringify({ prompt, messages: history ?? [] }),
        });
        if (res.status === 202) {
          const { id } = await res.json();
          opts.onStarted?.(id, prompt);
          return this.follow(id, prompt, history, opts);
        }
        if (res.status !== 404 && res.status !== 503) {
          const body = await res.json().catch(() => null);
          throw new Error(`toolnexus-chat: v1/runs answered HTTP ${res.status}: ${body?.error?.message ?? ""}`);
        }
        offered = false;
      }
      const { waitFor, onStep } = opts;
      let result = await post("v1/run", { prompt, messages: history ?? [] });
      // Each pending step costs one person's decision; the cap only guards a
      // Worker that keeps halting.
      for (let step = 0; result.status === "pending"; step++) {
        onStep?.(result);
        if (step >= maxSteps) throw new Error("toolnexus-chat: too many approvals in one run");
        if (!result.state || !result.pending) throw new Error("toolnexus-chat: a pending result came without state");
        const answer = await waitFor(result.pending);
        result = await post("v1/resume", { state: result.state, answer: resumeAnswer(result.pending, answer) });
      }
      onStep?.(result);
      return result;
    },
    // follow (re)attaches to durable run id, started with prompt after
    // history, until it is done (a reload's reattach: persist).
    async follow(id, prompt, history, opts) {
      const result = await followRun(base, fetchFn, id, opts);
      // The run's transcript stays in the Worker: the next turn's history
      // is the conversation as shown (text turns read the same in both
      // wire styles).
      result.messages = [...(history ?? []), { role: "user", content: prompt },
        ...(result.text ? [{ role: "assistant", content: result.text }] : [])];
      return result;
    },
    // revoke takes back a durable run's "allow for this run" (run: its id).
    async revoke(run, grant) {
      const res = await fetchFn(new URL(`v1/runs/${encodeURIComponent(run)}/revoke`, base), {
        method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ grant }),
      });
      const out = await res.json().catch(() => ({}));
      return res.ok ? out.decision : null;
    },
    close() {},
  };
}

// explainedFetch is fetch with its one unexplained failure explained: a
// page that calls a Worker on another origin which does not list the page's
// origin in ALLOWED_ORIGINS gets its preflight refused, and the browser says
// only "Failed to fetch". A no-cors request tells the two cases apart: it
// needs no permission, so when it reaches the Worker, CORS refused the call.
function explainedFetch(fetchFn, base) {
  const page = globalThis.location?.origin;
  return async (url, init) => {
    try {
      return await fetchFn(url, init);
    } catch (err) {
      if (init?.signal?.aborted || err?.name === "AbortError" || !page || page === "null" || base.origin === page) throw err;
      let reached = false;
      try {
        await fetchFn(new URL("healthz", base), { mode: "no-cors", cache: "no-store" });
        reached = true;
      } catch { /* the Worker is not reachable at all */ }
      throw new Error(reached
        ? `toolnexus-chat: the Worker at ${base.origin} does not allow requests from this page's origin (${page}): ` +
          `add ${page} to its ALLOWED_ORIGINS setting`
        : `toolnexus-chat: could not reach the Worker at ${base.origin} (${err?.message ?? err})`, { cause: err });
    }
  };
}

// followRun follows a durable run's events (GET /v1/runs/{id}/events,
// reconnecting with Last-Event-ID) until done. A halt shows the dialog here
// (waitFor) and says where else it can be answered (onWaiting(approveURL));
// an answer given here goes to the link, and one given elsewhere closes the
// dialog as the run goes on. Either way onAnswered(request, decision,
// {elsewhere}) gets the decision the run recorded (worker/runs: {decision:
// "approved" | "edited" | "declined" | "unknown", reason?, args?}), never
// how the dialog was closed: waitFor is told so ({recorded: true}).
async function followRun(base, fetchFn, id, { waitFor, onEvent, onWaiting, onAnswered, onDecision, signal } = {}) {
  let last = 0;
  let asking = null;
  for (let attempt = 0; attempt < 5;) {
    let res;
    try {
      res = await fetchFn(new URL(`v1/runs/${id}/events`, base), { headers: last ? { "last-event-id": String(last) } : {}, signal });
    } catch (err) {
      if (signal?.aborted) throw err;
      attempt++;
      await new Promise((ok) => setTimeout(ok, 500));
      continue;
    }
    if (!res.ok) throw new Error(`toolnexus-chat: v1/runs/${id}/events answered HTTP ${res.status}`);
    for await (const e of sseEvents(res.body)) {
      if (e.id) last = e.id;
      if (asking && e.event !== "pending" && e.event !== "decision") { asking.abort(); asking = null; }
      switch (e.event) {
        case "decision": // an entry of the run's record, as made (worker/runs)
          if (e.data?.decision) onDecision?.(e.data.decision);
          break;
        case "pending":
          asking = answerHere(fetchFn, e.data, waitFor, onWaiting, onAnswered);
          break;
        case "done":
          return e.data;
        case "error":
          throw new Error(`toolnexus-chat: the run failed: ${e.data?.error?.message ?? "unknown error"}`);
        default:
          if (e.data?.type === "tool_result" && e.data.originalArgs !== undefined) e.data.edited = true;
          onEvent?.(e.data);
      }
    }
    attempt++; // the stream ended before done: reconnect
  }
  throw new Error("toolnexus-chat: lost the run's event stream");
}

// answerHere asks here while the run waits; aborting it (the run went on)
// means someone answered elsewhere. The recorded decision then comes from
// the link itself (GET approveURL&view=json); an answer given here gets it
// from the link's reply (200, or 409 with the decision that won the race).
function answerHere(fetchFn, data, waitFor, onWaiting, onAnswered) {
  const ac = new AbortController();
  let here = false;
  const report = (decision, elsewhere) => onAnswered?.(data.request, decision ?? { decision: "unknown" }, { elsewhere });
  onWaiting?.(data.approveURL, data.request);
  ac.signal.addEventListener("abort", () => {
    if (here || typeof data.approveURL !== "string") return;
    fetchFn(data.approveURL + "&view=json", { headers: { accept: "application/json" } })
      .then((res) => res.json())
      .then((body) => report(body?.answered, true), () => report(null, true));
  });
  Promise.resolve(waitFor(data.request, { signal: ac.signal, recorded: true })).then(async (answer) => {
    if (ac.signal.aborted) return;
    here = true;
    const body = linkBody(answer); // outcome.mjs: an approval's, or whether a lost call happened
    const res = await fetchFn(data.approveURL, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const out = await res.json().catch(() => ({}));
    if (res.ok || res.status === 409) report(out?.decision, res.status === 409);
  }).catch(() => {});
  return ac;
}

// sseEvents reads a text/event-stream body as {id, event, data}.
async function* sseEvents(body) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buf = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buf += decoder.decode(value, { stream: true });
      let i;
      while ((i = buf.indexOf("\n\n")) >= 0) {
        const block = buf.slice(0, i);
        buf = buf.slice(i + 2);
        const e = {};
        for (const line of block.split("\n")) {
          if (line.startsWith("id: ")) e.id = Number(line.slice(4));
          else if (line.startsWith("event: ")) e.event = line.slice(7);
          else if (line.startsWith("data: ")) { try { e.data = JSON.parse(line.slice(6)); } catch { /* skipped */ } }
        }
        if (e.event) yield e;
      }
    }
  } finally {
    reader.releaseLock();
  }
}

// resumeAnswer keeps only the Answer fields the Worker reads, with the id echoed.
function resumeAnswer(pending, answer) {
  const out = { id: answer?.id ?? pending.id, ok: answer?.ok === true };
  if (!out.ok) out.reason = answer?.reason || "declined";
  if (answer?.data && typeof answer.data === "object") out.data = answer.data;
  return out;
}

/**
 * httpToolSpecs turns the declarative tools of the element's JSON config into
 * jsbridge http tool specs. Relative URLs resolve against the page; {name}
 * placeholders survive the resolving (URL parsing would escape the braces).
 */
export function httpToolSpecs(config, baseURI) {
  const tools = config?.tools ?? [];
  if (!Array.isArray(tools)) throw new Error("toolnexus-chat: the JSON config's tools must be an array");
  return tools.map((t, i) => {
    if (!t || typeof t !== "object" || !t.name || !t.url) {
      throw new Error(`toolnexus-chat: tools[${i}] needs a name and a url`);
    }
    const http = { method: t.method ?? "GET", url: resolveURL(String(t.url), baseURI) };
    for (const k of ["headers", "query", "body", "timeoutMs"]) if (t[k] !== undefined) http[k] = t[k];
    const spec = { name: t.name, description: t.description ?? "", needsApproval: !!t.needsApproval, http };
    if (t.inputSchema) spec.inputSchema = t.inputSchema;
    return spec;
  });
}

function resolveURL(url, baseURI) {
  if (/^https?:\/\//i.test(url) || !baseURI) return url;
  const names = [];
  const masked = url.replace(/\{([^{}]*)\}/g, (_, name) => `__tnx${names.push(name) - 1}__`);
  return new URL(masked, baseURI).href.replace(/__tnx(\d+)__/g, (_, i) => `{${names[i]}}`);
}
