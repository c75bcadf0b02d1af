// demo-model.mjs — an offline, scripted "model" for the demo page. It speaks the
// OpenAI chat-completions wire format through a fetch function, so the Go core
// drives it over exactly the same path as a real provider; no key, no network.
//
//   const { baseURL, model, fetch } = demoModel();
//   createClient({ baseURL, model, style: "openai", fetch, ... })
//
// It is also the model of `./build.sh worker-dev` (scripts/demo-model-server.mjs
// serves it over HTTP), so the same prompts behave alike in the tab, in the
// element's demo mode and on the local Worker.
//
// What it understands: "refund order 42" (calls refund, which needs approval),
// "add 2 and 3" / "what is 2+3" (calls add), "divide 6 by 3" (calls divide, which
// fails on a zero divisor), "what time is it" (calls time), "write a note" (asks
// with the built-in question tool, then saves the answer with the built-in
// write tool, which needs approval), and "review order 42" when it is offered
// a team's task tool (the demo's support agent hands "refund order 42" to its
// billing sub-agent, then answers with what billing reports).
//
// Its greeting (anything else) offers only what the place asking can do: the
// prompts whose tools the request offers, and "review order 42" where a team
// takes it — a request with the task tool, or a page that routes review
// prompts to a team (demoModel({team: true})).

const BASE_URL = "https://demo-model.invalid/v1";
const MODEL = "toolnexus-demo";

// PROMPTS: what the greeting may offer, each with the tools it needs.
const PROMPTS = [
  [["refund"], "\"refund order 42\" (asks for your approval)"],
  [["add"], "\"add 2 and 3\" or \"what is 2+3\""],
  [["divide"], "\"divide 1 by 0\" (a tool that fails)"],
  [["time"], "\"what time is it\""],
  [["question", "write"], "\"write a note\" (asks you two questions, then saves a file after your approval)"],
];
const REVIEW = "\"review order 42\" (a support agent hands the refund to its billing sub-agent)";

/**
 * help is the greeting for a request offering tools (a Map of name → schema;
 * null: any tool); team says review prompts go to a team here.
 */
export function help(tools, { team = false } = {}) {
  const offered = (names) => !tools || names.every((n) => tools.has(n));
  const items = PROMPTS.filter(([names]) => offered(names)).map(([, text]) => text);
  if (team || tools?.has("task")) items.push(REVIEW);
  if (items.length === 0) return "I am the offline demo model. No tools are offered here, so there is nothing I can do but talk.";
  const list = items.length === 1 ? items[0] : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
  return `I am the offline demo model. Try: ${list}.`;
}

// Ids stay unique across clients and page loads: a conversation's history may
// span several demoModel() instances.
let seq = 0;
const run = Math.random().toString(36).slice(2, 8);

export function demoModel({ team = false } = {}) {
  async function fetch(url, init = {}) {
    const href = typeof url === "string" ? url : url?.url ?? String(url);
    const method = (init.method ?? "GET").toUpperCase();
    if (method !== "POST" || !href.endsWith("/chat/completions")) {
      return json({ error: { message: `demo model: no route for ${method} ${href}` } }, 404);
    }
    let body;
    try {
      body = JSON.parse(await bodyText(init.body));
    } catch {
      return json({ error: { message: "demo model: request body is not JSON" } }, 400);
    }
    const turn = reply(body.messages ?? [], toolNames(body.tools), { team });
    const id = `demo-${run}-${++seq}`;
    const usage = {
      prompt_tokens: tokens(JSON.stringify(body.messages ?? [])),
      completion_tokens: tokens(turn.text ?? JSON.stringify(turn.call ?? {})),
    };
    usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
    if (body.stream) return stream(id, body.model ?? MODEL, turn, usage);
    return json(completion(id, body.model ?? MODEL, turn, usage));
  }
  return { baseURL: BASE_URL, model: MODEL, style: "openai", fetch };
}

// reply decides the next turn from the transcript: {text} or {call: {name, args}}.
function reply(messages, tools, { team }) {
  const HELP = help(tools, { team });
  const last = messages[messages.length - 1];
  if (!last) return { text: HELP };
  if (last.role === "tool") return afterTool(messages, last, tools);
  if (last.role !== "user") return { text: HELP };
  const said = contentText(last.content);

  let m = said.match(/\breview\s+order\s+#?(\d+)\b/i);
  if (m && tools?.has("task")) return callIfOffered(tools, "task", { agent: "billing", prompt: `refund order ${m[1]}` });
  if (m) {
    // Without a team here, say so instead of repeating the greeting.
    return { text: `Reviewing an order is a job for an agent team, and none is running this conversation ` +
      `(on the Worker, send the prompt with "agent": "support" and AGENTS declared).` +
      (!tools || tools.has("refund") ? ` I can refund it myself: "refund order ${m[1]}".` : "") };
  }
  m = said.match(/\brefund(?:\s+order)?\s+#?(\d+)\b/i);
  if (m) return callIfOffered(tools, "refund", { order: m[1] });
  m = said.match(/\badd\s+(-?\d+(?:\.\d+)?)\s+(?:and|to|\+)\s+(-?\d+(?:\.\d+)?)/i) ??
    said.match(/(-?\d+(?:\.\d+)?)\s*\+\s*(-?\d+(?:\.\d+)?)/);
  if (m) return callIfOffered(tools, "add", { a: Number(m[1]), b: Number(m[2]) });
  m = said.match(/\bdivide\s+(-?\d+(?:\.\d+)?)\s+by\s+(-?\d+(?:\.\d+)?)/i) ??
    said.match(/(-?\d+(?:\.\d+)?)\s*\/\s*(-?\d+(?:\.\d+)?)/);
  if (m) return callIfOffered(tools, "divide", { a: Number(m[1]), b: Number(m[2]) });
  if (/\btime\b/i.test(said)) return callIfOffered(tools, "time", {});
  if (/\b(?:write|make|take|save)\s+(?:a\s+|me\s+a\s+)?note\b/i.test(said)) return callIfOffered(tools, "question", { questions: NOTE_QUESTIONS });
  return { text: HELP };
}

const NOTE_QUESTIONS = [
  { question: "Which file should the note go to?", options: ["todo.md", "ideas.md", "journal.md"] },
  { question: "What should the note say?" },
];

function callIfOffered(tools, name, args) {
  if (tools && !tools.has(name)) return { text: `I would use the ${name} tool, but it is not available.` };
  return { call: { name, args: fitSchema(args, tools?.get(name)) } };
}

// fitSchema gives each argument the type the offered tool declares, as a
// real model reads the schema: the Worker's refund takes an integer order,
// the page's a string, and "refund order 42" means the same to both.
function fitSchema(args, schema) {
  const props = schema?.properties;
  if (!props || typeof props !== "object") return args;
  const out = { ...args };
  for (const [k, v] of Object.entries(out)) {
    const type = props[k]?.type;
    if ((type === "integer" || type === "number") && typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v))) out[k] = Number(v);
    else if (type === "string" && typeof v === "number") out[k] = String(v);
  }
  return out;
}

// afterTool answers from the latest tool result and the call that produced it.
function afterTool(messages, result, tools) {
  const call = findCall(messages, result.tool_call_id);
  const name = call?.function?.name ?? "tool";
  let args = {};
  try { args = JSON.parse(call?.function?.arguments || "{}"); } catch { /* keep {} */ }
  const out = contentText(result.content);

  if (name === "task") {
    // The sub-agent's final answer; a refusal it reports is passed on as one.
    const order = String(args.prompt ?? "").match(/order\s+#?(\d+)/i)?.[1] ?? "?";
    if (/did not|could not|was not run|declined|^\[/i.test(out)) return { text: `Billing could not refund order ${order}. It reported: ${out}` };
    return { text: `Billing has refunded order ${order}. It reported: ${out}` };
  }
  if (/was not run|declined/i.test(out)) {
    // The core reports a refusal as `tool "x" was not run: declined: <reason>`.
    const reason = (out.match(/declined:\s*([\s\S]*)$/i)?.[1] ?? out).trim() || "declined";
    if (name === "refund") return { text: `I did not refund order ${args.order}: "${reason}".` };
    return { text: `I did not run ${name}: "${reason}".` };
  }
  // A call whose outcome was lost and that a person recorded as not done
  // (core: `… a person recorded it as not done: <reason>`).
  const notDone = out.match(/recorded it as not done:\s*([\s\S]*)$/i);
  if (notDone) return { text: `${name} did not happen, I am told: "${notDone[1].trim()}".` };
  switch (name) {
    case "refund": return { text: `Done: ${out}.` };
    case "add": return { text: `${args.a} + ${args.b} = ${out}` };
    case "divide":
      // A throwing tool comes back as error text instead of a number.
      if (!Number.isFinite(Number(out)) || out.trim() === "") return { text: `I could not divide ${args.a} by ${args.b}: ${out}` };
      return { text: `${args.a} / ${args.b} = ${out}` };
    case "time": return { text: `It is ${out}.` };
    case "question": {
      // The answers come back as "question\n→ answer" pairs, in order.
      const [file, text] = [...out.matchAll(/^→ (.*)$/gm)].map((m) => m[1].trim());
      if (!file) return { text: `I got no answer: ${out}` };
      const path = `notes/${file.replace(/[^\w.-]+/g, "-")}`;
      return callIfOffered(tools, "write", { path, content: `${text || "(empty note)"}\n` });
    }
    case "write": return { text: `Saved ${args.path}. It is in the Files panel.` };
    default: return { text: `${name} returned: ${out}` };
  }
}

function findCall(messages, id) {
  for (let i = messages.length - 1; i >= 0; i--) {
    for (const c of messages[i].tool_calls ?? []) if (c.id === id) return c;
  }
  return null;
}

// toolNames maps each offered tool's name to its parameters schema.
function toolNames(tools) {
  if (!Array.isArray(tools)) return null;
  return new Map(tools.map((t) => [t?.function?.name ?? t?.name, t?.function?.parameters ?? t?.input_schema]));
}

function contentText(c) {
  if (typeof c === "string") return c;
  if (Array.isArray(c)) return c.map((p) => (typeof p === "string" ? p : p?.text ?? "")).join("");
  return c == null ? "" : JSON.stringify(c);
}

async function bodyText(body) {
  if (body == null) return "";
  if (typeof body === "string") return body;
  if (body instanceof ArrayBuffer || ArrayBuffer.isView(body)) return new TextDecoder().decode(body);
  return await new Response(body).text(); // ReadableStream, Blob, …
}

// A rough token estimate so the usage numbers move with the transcript.
function tokens(s) {
  return Math.max(1, Math.ceil(s.length / 4));
}

function completion(id, model, turn, usage) {
  const message = turn.call
    ? { role: "assistant", content: null, tool_calls: [toolCall(id, turn.call)] }
    : { role: "assistant", content: turn.text };
  return {
    id, object: "chat.completion", created: Math.floor(Date.now() / 1000), model,
    choices: [{ index: 0, message, finish_reason: turn.call ? "tool_calls" : "stop" }],
    usage,
  };
}

function toolCall(id, call) {
  return { id: `call_${id}`, type: "function", function: { name: call.name, arguments: JSON.stringify(call.args) } };
}

// stream answers a stream:true request as server-sent events.
function stream(id, model, turn, usage) {
  const chunk = (delta, finish = null, extra = {}) => ({
    id, object: "chat.completion.chunk", created: Math.floor(Date.now() / 1000), model,
    choices: [{ index: 0, delta, finish_reason: finish }], ...extra,
  });
  const events = [];
  if (turn.call) {
    events.push(chunk({ role: "assistant", tool_calls: [{ index: 0, ...toolCall(id, turn.call) }] }));
  } else {
    events.push(chunk({ role: "assistant", content: "" }));
    for (const piece of turn.text.match(/\S+\s*/g) ?? [""]) events.push(chunk({ content: piece }));
  }
  events.push(chunk({}, turn.call ? "tool_calls" : "stop"));
  events.push({ ...chunk({}), choices: [], usage });
  const text = events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join("") + "data: [DONE]\n\n";
  return new Response(text, { status: 200, headers: { "content-type": "text/event-stream" } });
}

function json(value, status = 200) {
  return new Response(JSON.stringify(value), { status, headers: { "content-type": "application/json" } });
}
