// mock-llm.mjs — a scripted mock LLM server shared by the Node, browser and Worker tests.
//
//   import { startMockLLM, toolResultsOf } from "./mock-llm.mjs";
//   const mock = await startMockLLM({ script: [
//     { toolCalls: [{ name: "refund", args: { order: "42" } }] },  // turn 1: call a tool
//     (req) => ({ text: "saw: " + toolResultsOf(req)[0].content }), // turn 2: decide from the request
//   ] });
//   try { … baseURL: mock.url … } finally { await mock.close(); }
//
// One server speaks both wire formats, chosen by path: POST …/chat/completions is
// OpenAI chat-completions (baseURL = mock.url or mock.url + "/v1"), POST …/messages is
// Anthropic messages (baseURL = mock.url). A request with "stream": true gets SSE.
//
// startMockLLM({script, tools, host}) → Promise<mock>
//   script  turns, consumed one per model request (either style):
//           {text}                          a final answer
//           {toolCalls: [{name, args, id?}], text?}  ask for tools (args: object)
//           {status, error?, body?}         an HTTP error (body: raw text to send)
//           chunkDelayMs (with "stream": true) waits that long before each event after
//           the first, so the reply streams slowly; mock.streams[i] = {sent, total}
//           counts the events of the i-th streamed reply as they go out
//           (request, index) => turn        decide from the recorded request
//           Past the end of the script the server answers 500 "script exhausted".
//   tools   {name: (args, {method, headers, query}) => output}: served at ANY /tools/<name>
//           (JSON body or query string in, JSON {output} out) for HTTP tools; calls are counted.
// mock.url             "http://127.0.0.1:<port>"
// mock.requests        every model request: {style, path, headers, body} (body parsed)
// mock.toolExecutions  {name: count} of /tools/<name> calls
// mock.streams         {sent, total} per streamed reply, in order
// mock.close()         stops the server (call it in finally)
// toolResultsOf(request) → [{id, content, isError}] tool results in a recorded request,
//                       normalised across both styles.

import { createServer } from "node:http";

export async function startMockLLM({ script = [], tools = {}, host = "127.0.0.1" } = {}) {
  const requests = [];
  const toolExecutions = {};
  const streams = [];
  let turn = 0;

  const server = createServer(async (req, res) => {
    try {
      const raw = await readBody(req);
      const path = new URL(req.url, "http://x").pathname;
      if (path.startsWith("/tools/")) {
        const name = decodeURIComponent(path.slice("/tools/".length));
        if (!tools[name]) return reply(res, 404, { error: `no tool ${name}` });
        toolExecutions[name] = (toolExecutions[name] ?? 0) + 1;
        const query = Object.fromEntries(new URL(req.url, "http://x").searchParams);
        const args = raw ? JSON.parse(raw) : query;
        return reply(res, 200, { output: await tools[name](args, { method: req.method, headers: req.headers, query }) });
      }
      const style = path.endsWith("/chat/completions") ? "openai" : path.endsWith("/messages") ? "anthropic" : null;
      if (req.method !== "POST" || !style) return reply(res, 404, { error: `no route ${req.method} ${path}` });
      const request = { style, path, headers: req.headers, body: raw ? JSON.parse(raw) : null };
      requests.push(request);
      const index = turn++;
      let step = script[index];
      if (typeof step === "function") step = await step(request, index);
      if (!step) return reply(res, 500, { error: { message: `mock-llm: script exhausted at request ${index + 1}` } });
      if (step.status) {
        res.writeHead(step.status, { "content-type": "application/json" });
        return res.end(step.body ?? JSON.stringify({ error: { type: "mock_error", message: step.error ?? "mock error" } }));
      }
      const calls = (step.toolCalls ?? []).map((c, i) => ({ id: c.id ?? `call_${index + 1}_${i + 1}`, name: c.name, args: c.args ?? {} }));
      const usage = { input: 10 + raw.length % 97, output: 5 + calls.length };
      const model = request.body?.model ?? "mock";
      const stream = request.body?.stream === true;
      const events = () => (style === "openai" ? openaiChunks : anthropicEvents)(index, model, step.text, calls, usage);
      if (stream) return sse(res, events(), step.chunkDelayMs ?? 0, streams);
      return reply(res, 200, (style === "openai" ? openaiBody : anthropicBody)(index, model, step.text, calls, usage));
    } catch (err) {
      reply(res, 500, { error: { message: `mock-llm: ${err.message}` } });
    }
  });

  await new Promise((ok, fail) => {
    server.once("error", fail);
    server.listen(0, host, ok);
  });
  const { port } = server.address();
  return {
    url: `http://${host}:${port}`,
    requests,
    toolExecutions,
    streams,
    close: () => new Promise((done) => { server.closeAllConnections(); server.close(() => done()); }),
  };
}

export function toolResultsOf(request) {
  const out = [];
  for (const m of request?.body?.messages ?? []) {
    if (m.role === "tool") out.push({ id: m.tool_call_id, content: text(m.content), isError: undefined });
    if (m.role === "user" && Array.isArray(m.content)) {
      for (const b of m.content) {
        if (b.type === "tool_result") out.push({ id: b.tool_use_id, content: text(b.content), isError: b.is_error === true });
      }
    }
  }
  return out;
}

function text(c) {
  if (typeof c === "string") return c;
  if (Array.isArray(c)) return c.map((b) => (typeof b === "string" ? b : b?.text ?? "")).join("");
  return c == null ? "" : JSON.stringify(c);
}

function openaiBody(i, model, content, calls, usage) {
  const message = { role: "assistant", content: content ?? null };
  if (calls.length) {
    message.tool_calls = calls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: JSON.stringify(c.args) } }));
  }
  return {
    id: `chatcmpl-mock-${i + 1}`, object: "chat.completion", created: 1700000000, model,
    choices: [{ index: 0, message, finish_reason: calls.length ? "tool_calls" : "stop" }],
    usage: { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output },
  };
}

function openaiChunks(i, model, content, calls, usage) {
  const chunk = (delta, finish = null) => ({
    id: `chatcmpl-mock-${i + 1}`, object: "chat.completion.chunk", created: 1700000000, model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const out = [chunk({ role: "assistant", content: "" })];
  if (content) for (const piece of content.match(/\S+\s*|\s+/g)) out.push(chunk({ content: piece }));
  calls.forEach((c, index) => {
    const args = JSON.stringify(c.args);
    const half = Math.floor(args.length / 2);
    out.push(chunk({ tool_calls: [{ index, id: c.id, type: "function", function: { name: c.name, arguments: args.slice(0, half) } }] }));
    out.push(chunk({ tool_calls: [{ index, function: { arguments: args.slice(half) } }] }));
  });
  out.push(chunk({}, calls.length ? "tool_calls" : "stop"));
  out.push({ ...chunk({}), choices: [], usage: { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output } });
  return out.map((d) => ({ data: d })).concat({ data: "[DONE]" });
}

function anthropicBody(i, model, content, calls, usage) {
  const blocks = [];
  if (content) blocks.push({ type: "text", text: content });
  for (const c of calls) blocks.push({ type: "tool_use", id: c.id, name: c.name, input: c.args });
  return {
    id: `msg_mock_${i + 1}`, type: "message", role: "assistant", model, content: blocks,
    stop_reason: calls.length ? "tool_use" : "end_turn", stop_sequence: null,
    usage: { input_tokens: usage.input, output_tokens: usage.output },
  };
}

function anthropicEvents(i, model, content, calls, usage) {
  const ev = (event, data) => ({ event, data: { type: event, ...data } });
  const out = [ev("message_start", { message: { id: `msg_mock_${i + 1}`, type: "message", role: "assistant", model, content: [],
    stop_reason: null, stop_sequence: null, usage: { input_tokens: usage.input, output_tokens: 1 } } })];
  let index = 0;
  if (content) {
    out.push(ev("content_block_start", { index, content_block: { type: "text", text: "" } }));
    for (const piece of content.match(/\S+\s*|\s+/g)) out.push(ev("content_block_delta", { index, delta: { type: "text_delta", text: piece } }));
    out.push(ev("content_block_stop", { index }));
    index++;
  }
  for (const c of calls) {
    const args = JSON.stringify(c.args);
    out.push(ev("content_block_start", { index, content_block: { type: "tool_use", id: c.id, name: c.name, input: {} } }));
    out.push(ev("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: args } }));
    out.push(ev("content_block_stop", { index }));
    index++;
  }
  out.push(ev("message_delta", { delta: { stop_reason: calls.length ? "tool_use" : "end_turn", stop_sequence: null }, usage: { output_tokens: usage.output } }));
  out.push(ev("message_stop", {}));
  return out;
}

function reply(res, status, value) {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(value));
}

async function sse(res, events, delayMs = 0, streams = []) {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const log = { sent: 0, total: events.length };
  streams.push(log);
  for (const e of events) {
    if (delayMs && log.sent > 0) await new Promise((r) => setTimeout(r, delayMs));
    const data = typeof e.data === "string" ? e.data : JSON.stringify(e.data);
    res.write((e.event ? `event: ${e.event}\n` : "") + `data: ${data}\n\n`);
    log.sent++;
  }
  res.end();
}

function readBody(req) {
  return new Promise((ok, fail) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => ok(Buffer.concat(chunks).toString("utf8")));
    req.on("error", fail);
  });
}
