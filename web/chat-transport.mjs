// chat-transport.mjs — the agent in the tab behind an AI SDK chat UI (issue 25).
//
// chatTransport({client, toolkit}) is an object with the AI SDK's ChatTransport
// interface (ai 6.x: sendMessages, reconnectToStream), so useChat / Chat run our
// wasm loop in the page with no backend:
//
//   import { load, chatTransport } from "./toolnexus.mjs";
//   const tnx = await load();
//   const client = await tnx.createClient({ baseURL, model, apiKey }); // no waitFor
//   const toolkit = await tnx.createToolkit({ tools: [refund] });
//   useChat({ transport: chatTransport({ client, toolkit }),
//             sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses });
//
// It emits the chunks the Worker's POST /v1/ui writes (worker/uiproto/stream.go has
// the table): text, one step per model call, tool-<name> parts with
// toolMetadata {source, needsApproval}, and a call that needs approval as the
// protocol's approval request (approvalDescriptor: our request). The client's
// approval response becomes our Answer: approved, the tool runs once; denied,
// the reason reaches the model. A halted run waits in this transport (by
// approval id) until it is answered, once: the same answer again, or one for a
// call it did not ask about, is refused and runs nothing. A client made with a
// waitFor (approvalDialog()) answers inline instead, and the UI never sees an
// approval. chatTransport({agent, model}) runs an agent team instead (an
// agent from createAgent, the tools build; model as for agent.run): see
// teamTransport. The AI SDK's approval response has no field for edited
// arguments: pass them as addToolApprovalResponse({id, approved: true,
// options: {body: {approvalArgs}}}), as for the Worker. style is the
// client's wire style ("openai" or "anthropic"), for the transcript built
// from the UI messages of a new turn.

export function chatTransport({ client, toolkit, style = "openai", agent, model } = {}) {
  if (agent) return teamTransport(agent, model);
  if (!client || typeof client.stream !== "function") throw new TypeError("toolnexus: chatTransport needs a client from createClient()");
  if (!toolkit || !toolkit.raw) throw new TypeError("toolnexus: chatTransport needs a toolkit from createToolkit()");
  const halted = new Map(); // approval id → {messages, pending, callId}
  let tools = null; // name → {source, needsApproval}
  const toolInfo = async () => (tools ??= new Map((await toolkit.tools()).map((t) => [t.name, t])));
  const keep = (p, result) => halted.set(p.id, { messages: result.messages, pending: p, callId: p.data.callId });
  return Object.freeze({
    async sendMessages({ messages, abortSignal, body } = {}) {
      if (!Array.isArray(messages) || messages.length === 0) throw new TypeError("toolnexus: messages must be a non-empty list of UI messages");
      messages.forEach(checkMessage);
      const info = await toolInfo();
      const last = messages[messages.length - 1];
      if (last.role === "user") {
        const events = client.stream(promptOf(last), toolkit, { history: transcript(messages.slice(0, -1), style), signal: abortSignal });
        return toStream(chunks(events, info, keep, null));
      }
      const { wait, answer } = takeAnswer(last, halted, body);
      const events = client.streamWithAnswer(toolkit, wait.messages, wait.pending, answer, { signal: abortSignal });
      return toStream(chunks(events, info, keep, wait.callId));
    },
    // A run lives as long as its sendMessages stream: there is nothing to reconnect to.
    async reconnectToStream() {
      return null;
    },
  });
}

// teamTransport runs an agent team (createAgent, the tools build) instead:
// the last user message is the top agent's task, a member's tool calls come
// in steps of their own with toolMetadata.path, and a halt anywhere in the
// tree is the approval request of the member's call (approvalDescriptor.path
// names the asking agent); the answer resumes the halted runtime, once.
function teamTransport(agent, model = {}) {
  if (typeof agent.run !== "function") throw new TypeError("toolnexus: chatTransport's agent must come from createAgent()");
  const halted = new Map(); // approval id → {runtime, sink, callId}
  const info = new Map();
  const visit = (a) => {
    for (const t of a.tools ?? []) if (t?.name && !info.has(t.name)) info.set(t.name, { source: t.source, needsApproval: !!t.needsApproval });
    for (const m of a.team ?? []) visit(m);
  };
  visit(agent);
  // Every run gets a sink its runtime's onStream writes to; a resume points
  // the halted runtime's sink at the new request's queue.
  const settle = (q, sink, promise) => promise.then((result) => {
    const p = result.pending;
    if (result.status === "pending" && p?.kind === "approval" && p.data?.callId && result.runtime) {
      halted.set(p.id, { runtime: result.runtime, sink, callId: p.data.callId });
    } else {
      result.runtime?.release();
    }
    q.push({ type: "done", result });
    q.end();
  }, (err) => q.fail(err));
  return Object.freeze({
    async sendMessages({ messages, abortSignal, body } = {}) {
      if (!Array.isArray(messages) || messages.length === 0) throw new TypeError("toolnexus: messages must be a non-empty list of UI messages");
      messages.forEach(checkMessage);
      const last = messages[messages.length - 1];
      const q = queue();
      if (last.role === "user") {
        const sink = { push: q.push };
        settle(q, sink, agent.run(promptOf(last), { ...model, signal: abortSignal, onStream: (e) => sink.push(e) }));
        return toStream(chunks(q.events(), info, () => {}, null));
      }
      const { wait, answer } = takeAnswer(last, halted, body);
      wait.sink.push = q.push;
      settle(q, wait.sink, wait.runtime.resume(answer));
      return toStream(chunks(q.events(), info, () => {}, wait.callId));
    },
    async reconnectToStream() {
      return null;
    },
  });
}

// queue is an async iterator fed by push, ended by end or fail.
function queue() {
  const items = [];
  let wake = null, ended = false, error = null;
  const poke = () => { wake?.(); wake = null; };
  return {
    push: (e) => { if (!ended) { items.push(e); poke(); } },
    end: () => { ended = true; poke(); },
    fail: (err) => { error = err; ended = true; poke(); },
    async *events() {
      for (;;) {
        if (items.length) { yield items.shift(); continue; }
        if (error) throw error;
        if (ended) return;
        await new Promise((r) => { wake = r; });
      }
    },
  };
}

const promptOf = (m) => {
  const prompt = textOf(m);
  if (!prompt.trim()) throw new TypeError("toolnexus: the last user message has no text");
  return prompt;
};

// takeAnswer finds the one approval response of the last message and takes
// its halted run (single-use, before anything runs) with the Answer.
function takeAnswer(last, halted, body) {
  const answered = last.role === "assistant" ? last.parts.filter((p) => isToolPart(p) && p.state === "approval-responded") : [];
  if (answered.length !== 1) throw new TypeError("toolnexus: the last message must be the user's, or the assistant's answering one approval");
  const part = answered[0];
  const id = part.approval?.id;
  const wait = halted.get(id);
  if (!wait || wait.callId !== part.toolCallId) {
    throw new Error(`toolnexus: approval ${JSON.stringify(id)} answers no request of this chat (answered already, or never asked); nothing ran`);
  }
  const edit = body?.approvalArgs;
  if (edit !== undefined && (edit === null || typeof edit !== "object" || Array.isArray(edit))) {
    throw new TypeError("toolnexus: approvalArgs must be an object: the arguments the approved call runs with instead");
  }
  halted.delete(id);
  const answer = !part.approval.approved ? { id, ok: false, reason: part.approval.reason || "declined" }
    : edit ? { id, ok: true, data: { args: edit } } : { id, ok: true };
  return { wait, answer };
}

function checkMessage(m, i) {
  if (!m || typeof m !== "object" || !["system", "user", "assistant"].includes(m.role) || !Array.isArray(m.parts)) {
    throw new TypeError(`toolnexus: messages[${i}] is not a UI message ({id, role, parts})`);
  }
}

const isToolPart = (p) => p?.type === "dynamic-tool" || (typeof p?.type === "string" && p.type.startsWith("tool-"));
const toolName = (p) => (p.type === "dynamic-tool" ? p.toolName : p.type.slice(5));
const textOf = (m) => m.parts.filter((p) => p.type === "text").map((p) => p.text ?? "").join("");

// toStream is a ReadableStream of the generator's chunks (pulled one at a time;
// cancelling it ends the run through the generator's return).
function toStream(gen) {
  return new ReadableStream({
    async pull(controller) {
      const { value, done } = await gen.next();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    async cancel() {
      await gen.return();
    },
  });
}

// chunks turns our stream events into UI message chunks, as the Worker does.
async function* chunks(events, info, keep, skip) {
  let step = false, modelDone = false, text = null, steps = 0, handle = null;
  const out = [];
  const endText = () => { if (text) { out.push({ type: "text-end", id: text }); text = null; } };
  const endStep = () => { endText(); if (step) { out.push({ type: "finish-step" }); step = false; } };
  const startStep = () => { endStep(); step = true; modelDone = false; steps++; out.push({ type: "start-step" }); };
  yield { type: "start" };
  try {
    for await (const e of events) {
      if (e.path && e.type !== "done") {
        // A team's event: one step per model call of one agent (see teamTransport).
        if (e.path.length > 1) {
          if (e.type === "tool_call" && e.id !== skip) {
            if (!step || handle !== e.handle) { startStep(); handle = e.handle; }
            out.push(toolCallChunk(e, info, e.path));
          } else if (e.type === "tool_result") out.push(toolResultChunk(e));
          yield* out.splice(0);
          continue;
        }
        if (e.type === "text" || e.type === "usage" || e.type === "tool_call") {
          if (step && handle !== e.handle) endStep();
          handle = e.handle;
        }
      }
      switch (e.type) {
        case "text":
          if (!e.delta) break;
          if (!step || modelDone) startStep();
          if (!text) out.push({ type: "text-start", id: (text = `text-${steps}`) });
          out.push({ type: "text-delta", id: text, delta: e.delta });
          break;
        case "usage":
          if (!step || modelDone) startStep();
          endText();
          modelDone = true;
          break;
        case "tool_call":
          endText();
          if (e.id !== skip) out.push(toolCallChunk(e, info, null));
          break;
        case "tool_result":
          out.push(toolResultChunk(e));
          break;
        case "done":
          finish(e.result, out, keep);
          endStep();
          out.push(finishChunk(e.result));
          break;
      }
      yield* out.splice(0);
    }
  } catch (err) {
    endStep();
    out.push({ type: "error", errorText: String(err?.message ?? err) });
    yield* out.splice(0);
  }
}

function toolCallChunk(e, info, path) {
  const t = info.get(e.name);
  const toolMetadata = t ? { ...(t.source ? { source: t.source } : {}), ...(t.needsApproval ? { needsApproval: true } : {}) } : {};
  if (path) toolMetadata.path = path;
  return { type: "tool-input-available", toolCallId: e.id, toolName: e.name, input: parseArgs(e.args), toolMetadata };
}

function toolResultChunk(e) {
  const c = e.declined ? { type: "tool-output-denied", toolCallId: e.id }
    : e.isError ? { type: "tool-output-error", toolCallId: e.id, errorText: e.output ?? "" }
    : { type: "tool-output-available", toolCallId: e.id, output: e.output ?? "" };
  if (e.edited) c.toolMetadata = { edited: true, args: parseArgs(e.args), originalArgs: parseArgs(e.originalArgs) };
  return c;
}

// finish writes a halt's approval request; keep holds the halted run for the answer.
function finish(result, out, keep) {
  const p = result.pending;
  if (result.status !== "pending" || !p) return;
  const callId = p.data?.callId;
  if (p.kind !== "approval" || !callId) {
    out.push({ type: "data-toolnexus-pending", data: { request: p } });
    return;
  }
  keep(p, result);
  const approvalDescriptor = { kind: p.kind, prompt: p.prompt };
  for (const k of ["tool", "args", "source", "server", "schema", "path"]) if (p.data[k] !== undefined) approvalDescriptor[k] = p.data[k];
  out.push({ type: "tool-approval-request", approvalId: p.id, toolCallId: callId, approvalDescriptor });
}

function finishChunk(r) {
  const finishReason = r.status === "pending" ? "tool-calls" : r.status === "done" ? "stop"
    : r.status === "incomplete" && r.limit !== "error" ? "length" : "other";
  const toolnexus = { status: r.status, turns: r.turns, ...(r.limit ? { limit: r.limit } : {}) };
  for (const k of ["usage", "model", "totalTokens"]) if (r[k] !== undefined) toolnexus[k] = r[k];
  return { type: "finish", finishReason, messageMetadata: { toolnexus } };
}

function parseArgs(s) {
  if (s == null || s === "") return {};
  try { return JSON.parse(s); } catch { return s; }
}

// transcript turns the UI messages before a new turn into the client's wire
// format, as the Worker does (worker/uiproto/history.go): user text; per assistant
// step its text and finished tool calls, then their results; no system
// messages, files or data parts.
export function transcript(messages, style = "openai") {
  const anthropic = style === "anthropic";
  const out = [];
  for (const m of messages) {
    if (m.role === "user") {
      const t = textOf(m);
      if (t) out.push({ role: "user", content: t });
      continue;
    }
    if (m.role !== "assistant") continue;
    let step = { text: "", calls: [] };
    const flush = () => {
      if (step.text || step.calls.length) {
        if (anthropic) {
          const content = step.text ? [{ type: "text", text: step.text }] : [];
          for (const c of step.calls) content.push({ type: "tool_use", id: c.id, name: c.name, input: c.input });
          out.push({ role: "assistant", content });
          if (step.calls.length) out.push({ role: "user", content: step.calls.map((c) => ({ type: "tool_result", tool_use_id: c.id, content: c.content, ...(c.isError ? { is_error: true } : {}) })) });
        } else {
          const msg = { role: "assistant", content: step.text || (step.calls.length ? null : "") };
          if (step.calls.length) msg.tool_calls = step.calls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: JSON.stringify(c.input ?? {}) } }));
          out.push(msg);
          for (const c of step.calls) out.push({ role: "tool", tool_call_id: c.id, content: c.content });
        }
      }
      step = { text: "", calls: [] };
    };
    for (const p of m.parts) {
      if (p.type === "step-start") flush();
      else if (p.type === "text") step.text += p.text ?? "";
      else if (isToolPart(p)) {
        const call = { id: p.toolCallId, name: toolName(p), input: p.input ?? {} };
        if (p.state === "output-available") call.content = typeof p.output === "string" ? p.output : JSON.stringify(p.output);
        else if (p.state === "output-error") Object.assign(call, { content: p.errorText ?? "", isError: true });
        else if (p.state === "output-denied") Object.assign(call, { content: `tool ${JSON.stringify(call.name)} was not run: declined: ${p.approval?.reason || "declined"}`, isError: true });
        else continue; // never answered: left out with its result
        step.calls.push(call);
      }
    }
    flush();
  }
  return out;
}
