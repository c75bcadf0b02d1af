// mock-faults.mjs — a scripted OpenAI-style model that can also misbehave at
// the socket level, for the fault tests (tests/faults.test.mjs). mock-llm.mjs
// answers well-formed HTTP only; this one can reset a connection, cut a body
// off mid-JSON or stall a stream, which needs the raw socket.
//
//   import { startFaultyLLM } from "./mock-faults.mjs";
//   const mock = await startFaultyLLM({ script: [
//     { reset: true },                                   // destroy the socket, no reply
//     { toolCalls: [{ name: "add", args: '{"a":2,"b":3}' }] }, // args: raw JSON text
//     { text: "done" },
//   ] });
//   try { … baseURL: mock.url + "/v1" … } finally { await mock.close(); }
//
// Steps (one per POST …/chat/completions, non-streamed or streamed as asked):
//   {text}                          final answer
//   {toolCalls: [{name, args, id?}], text?}  args: a string is sent verbatim
//                                   (so it may be invalid JSON), an object is JSON-encoded
//   {status, headers?, body?}       an HTTP error reply
//   {reset: true}                   read the request, then destroy the socket
//   {cut: n}                        send a 200 whose Content-Length promises the
//                                   whole reply of `then` (default a text turn),
//                                   write its first n bytes, destroy the socket
//   {truncated: n}                  a complete 200 whose body is the first n bytes
//                                   of the reply: well-framed HTTP, broken JSON
//   {raw: "…"}                      a 200 with this body verbatim (e.g. no choices)
//   {stall: n}                      a streamed (SSE) reply that sends its first n
//                                   events, then neither sends nor closes
//   (request, index) => step        decide from the recorded request
// Past the end of the script: 500 "script exhausted".
//
// mock.url, mock.requests ({path, headers, body}), mock.sockets (connections
// accepted), mock.close() (destroys stalled sockets too).

import { createServer } from "node:http";

export async function startFaultyLLM({ script = [], host = "127.0.0.1" } = {}) {
  const requests = [];
  const open = new Set();
  let sockets = 0;
  let turn = 0;
  const server = createServer(async (req, res) => {
    try {
      const raw = await readBody(req);
      const path = new URL(req.url, "http://x").pathname;
      if (req.method !== "POST" || !path.endsWith("/chat/completions")) {
        return json(res, 404, { error: { message: `no route ${req.method} ${path}` } });
      }
      const body = raw ? JSON.parse(raw) : null;
      const request = { path, headers: req.headers, body };
      requests.push(request);
      const index = turn++;
      let step = script[index];
      if (typeof step === "function") step = await step(request, index);
      if (!step) return json(res, 500, { error: { message: `mock-faults: script exhausted at request ${index + 1}` } });
      const model = body?.model ?? "mock";
      const stream = body?.stream === true;
      if (step.reset) return req.socket.destroy();
      if (step.status) {
        res.writeHead(step.status, { "content-type": "application/json", ...(step.headers ?? {}) });
        return res.end(step.body ?? JSON.stringify({ error: { type: "mock_error", message: `mock HTTP ${step.status}` } }));
      }
      if (step.raw !== undefined) {
        res.writeHead(200, { "content-type": "application/json" });
        return res.end(step.raw);
      }
      if (step.cut !== undefined || step.truncated !== undefined) {
        const full = Buffer.from(JSON.stringify(completion(index, model, step.then ?? { text: "this reply is cut off" })));
        const n = Math.min(step.cut ?? step.truncated, full.length - 1);
        if (step.truncated !== undefined) {
          res.writeHead(200, { "content-type": "application/json", "content-length": n });
          return res.end(full.subarray(0, n));
        }
        res.writeHead(200, { "content-type": "application/json", "content-length": full.length });
        res.write(full.subarray(0, n));
        // Let the head and the first bytes leave before the connection dies.
        return setTimeout(() => req.socket.destroy(), 50);
      }
      if (step.stall !== undefined) {
        res.writeHead(200, { "content-type": stream ? "text/event-stream" : "application/json" });
        if (stream) {
          for (const e of chunks(index, model, step.then ?? { text: "a stream that stops half way" }).slice(0, step.stall)) {
            res.write(`data: ${JSON.stringify(e)}\n\n`);
          }
        } else {
          res.write('{"id":"chatcmpl-stall","choices":[');
        }
        return; // never ends: close() destroys the socket
      }
      if (stream) {
        res.writeHead(200, { "content-type": "text/event-stream" });
        for (const e of chunks(index, model, step)) res.write(`data: ${JSON.stringify(e)}\n\n`);
        return res.end("data: [DONE]\n\n");
      }
      return json(res, 200, completion(index, model, step));
    } catch (err) {
      json(res, 500, { error: { message: `mock-faults: ${err.message}` } });
    }
  });
  server.on("connection", (s) => {
    sockets++;
    open.add(s);
    s.on("close", () => open.delete(s));
  });
  await new Promise((ok, fail) => {
    server.once("error", fail);
    server.listen(0, host, ok);
  });
  const { port } = server.address();
  return {
    url: `http://${host}:${port}`,
    requests,
    get sockets() { return sockets; },
    close: () => new Promise((done) => {
      for (const s of open) s.destroy();
      server.close(() => done());
    }),
  };
}

function calls(index, step) {
  return (step.toolCalls ?? []).map((c, i) => ({
    id: c.id ?? `call_${index + 1}_${i + 1}`,
    name: c.name,
    args: typeof c.args === "string" ? c.args : JSON.stringify(c.args ?? {}),
  }));
}

function completion(index, model, step) {
  const cs = calls(index, step);
  const message = { role: "assistant", content: step.text ?? null };
  if (cs.length) message.tool_calls = cs.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.args } }));
  return {
    id: `chatcmpl-faults-${index + 1}`, object: "chat.completion", created: 1700000000, model,
    choices: [{ index: 0, message, finish_reason: cs.length ? "tool_calls" : "stop" }],
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
  };
}

function chunks(index, model, step) {
  const chunk = (delta, finish = null) => ({
    id: `chatcmpl-faults-${index + 1}`, object: "chat.completion.chunk", created: 1700000000, model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const out = [chunk({ role: "assistant", content: "" })];
  if (step.text) for (const piece of step.text.match(/\S+\s*|\s+/g)) out.push(chunk({ content: piece }));
  calls(index, step).forEach((c, i) => {
    out.push(chunk({ tool_calls: [{ index: i, id: c.id, type: "function", function: { name: c.name, arguments: c.args } }] }));
  });
  out.push(chunk({}, step.toolCalls?.length ? "tool_calls" : "stop"));
  return out;
}

function json(res, status, value) {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(value));
}

function readBody(req) {
  return new Promise((ok, fail) => {
    const parts = [];
    req.on("data", (c) => parts.push(c));
    req.on("end", () => ok(Buffer.concat(parts).toString("utf8")));
    req.on("error", fail);
  });
}
