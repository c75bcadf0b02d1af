// demo.mjs — wires the demo page: model picker, composer, transcript.
// Every string from the model or a tool reaches the page through textContent.

import { load, approvalDialog } from "./toolnexus.mjs";
import { demoModel } from "./demo-model.mjs";
import { demoTools } from "./demo-tools.mjs";

const $ = (id) => document.getElementById(id);
const ui = {
  transcript: $("transcript"), busy: $("busy"), form: $("composer"), message: $("message"),
  send: $("send"), reset: $("reset"), endpoint: $("endpoint"), baseURL: $("base-url"),
  model: $("model-name"), apiKey: $("api-key"),
};
const DEFAULTS = {
  openai: { baseURL: "https://api.openai.com/v1", model: "gpt-4o-mini" },
  anthropic: { baseURL: "https://api.anthropic.com", model: "claude-3-5-haiku-latest" },
};

let tnx = null;
let toolkit = null;
let history = []; // result.messages of the last finished run: the conversation so far
// Call ids whose call / result is already in the transcript. Tools and waitFor
// show calls live; after a run, anything the core decided alone (an unknown
// tool, bad arguments, a timeout) is filled in from result.toolCalls.
let shownCalls = new Set();
let shownResults = new Set();
const approve = approvalDialog();

start();

async function start() {
  try {
    tnx = await load();
    toolkit = await tnx.createToolkit({ tools: demoTools().map(shown) });
  } catch (err) {
    entry("error", "Error", `Could not start the agent: ${err.message}`, true);
    return;
  }
  performance.mark("toolnexus:ready");
  document.documentElement.dataset.ready = "1";
  ui.message.disabled = false;
  ui.send.disabled = false;
  ui.message.focus();
}

// shown wraps a tool so its call and result appear in the transcript as they happen.
function shown(tool) {
  return {
    ...tool,
    async run(args, ctx) {
      const id = ctx?.callId;
      if (!shownCalls.has(id)) showCall(id, tool.name, args);
      try {
        const out = await tool.run(args, ctx);
        const isError = typeof out === "object" && out !== null && out.isError === true;
        showResult(id, resultText(out), isError);
        return out;
      } catch (err) {
        showResult(id, err?.message ?? String(err), true);
        throw err; // the core turns the throw into an error result and the run goes on
      }
    },
  };
}

// waitFor shows the call, asks the person, and records a decline in the transcript.
async function waitFor(request) {
  const data = request?.data ?? {};
  if (typeof data.tool === "string") showCall(data.callId, data.tool, data.args, " · needs approval");
  ui.busy.textContent = "Waiting for your approval…";
  const answer = await approve(request);
  ui.busy.textContent = "Working…";
  if (!answer.ok) showResult(data.callId, `declined: ${answer.reason}`, true, "Tool declined");
  return answer;
}

// client returns a client for the picked model, reusing it while the settings
// stay the same (the key lives only in this closure and the input field).
let cached = { key: "", client: null };
function client() {
  const kind = document.querySelector('input[name="provider"]:checked')?.value ?? "demo";
  const settings = kind === "demo" ? { kind } : {
    kind, baseURL: ui.baseURL.value.trim(), model: ui.model.value.trim(), apiKey: ui.apiKey.value,
  };
  const key = JSON.stringify(settings);
  if (cached.key !== key || !cached.client) cached = { key, client: makeClient(settings) };
  cached.client.catch(() => { if (cached.key === key) cached = { key: "", client: null }; });
  return cached.client;
}

function makeClient({ kind, baseURL, model, apiKey }) {
  const common = { waitFor, systemPrompt: "You are a helpful assistant. Use the tools when they help.", maxTurns: 8 };
  if (kind === "demo") return tnx.createClient({ ...demoModel(), ...common });
  // Anthropic refuses browser calls unless the page opts in explicitly.
  const headers = kind === "anthropic" ? { "anthropic-dangerous-direct-browser-access": "true" } : undefined;
  return tnx.createClient({ ...common, style: kind, headers, baseURL, model, apiKey });
}

ui.form.addEventListener("submit", async (e) => {
  e.preventDefault();
  const prompt = ui.message.value.trim();
  if (!prompt || !toolkit || ui.send.disabled) return;
  ui.message.value = "";
  entry("user", "You", prompt);
  setBusy(true);
  try {
    const result = await (await client()).run(prompt, toolkit, { history });
    history = result.messages ?? history;
    for (const call of result.toolCalls ?? []) {
      if (!shownCalls.has(call.id)) showCall(call.id, call.name, call.args);
      if (!shownResults.has(call.id)) showResult(call.id, call.output, call.isError);
    }
    if (result.text) entry("assistant", "Assistant", result.text);
    if (result.status === "incomplete") entry("error", "Note", `The run stopped early (${result.limit || "turn limit"}).`, true);
    if (result.status === "pending") entry("error", "Note", "The run is waiting on a request this page cannot answer.", true);
  } catch (err) {
    // The conversation stays as it was before this message, so the next send works.
    entry("error", "Error", err?.message ?? String(err), true);
  } finally {
    shownCalls = new Set();
    shownResults = new Set();
    setBusy(false);
  }
});

ui.reset.addEventListener("click", () => {
  history = [];
  ui.transcript.replaceChildren();
  ui.message.focus();
});

// Switching provider starts a new conversation: transcripts are per wire format.
for (const radio of document.querySelectorAll('input[name="provider"]')) {
  radio.addEventListener("change", () => {
    const kind = radio.value;
    ui.endpoint.hidden = kind === "demo";
    if (DEFAULTS[kind]) {
      ui.baseURL.value = DEFAULTS[kind].baseURL;
      ui.model.value = DEFAULTS[kind].model;
    }
    ui.reset.click();
  });
}

function setBusy(on) {
  // Nothing that changes the conversation may happen while a run is using it.
  ui.send.disabled = on;
  ui.reset.disabled = on;
  document.getElementById("picker").disabled = on;
  ui.transcript.setAttribute("aria-busy", String(on));
  ui.busy.textContent = on ? "Working…" : "";
  if (!on) ui.message.focus();
}

function entry(kind, who, text, isError = false) {
  const div = document.createElement("div");
  div.className = `entry ${kind}${isError ? " is-error" : ""}`;
  const label = document.createElement("span");
  label.className = "who";
  label.textContent = who;
  const body = document.createElement(kind.startsWith("tool") ? "code" : "span");
  body.textContent = text;
  div.append(label, body);
  ui.transcript.append(div);
  ui.transcript.scrollTop = ui.transcript.scrollHeight;
}

function showCall(id, name, args, note = "") {
  if (id) shownCalls.add(id);
  entry("tool-call", `Tool call${note}`, `${name} ${compact(args)}`);
}

function showResult(id, text, isError, label) {
  if (id) shownResults.add(id);
  entry("tool-result", label ?? (isError ? "Tool error" : "Tool result"), text, isError);
}

function compact(v) {
  if (typeof v === "string") {
    try { v = JSON.parse(v); } catch { return v; }
  }
  try { return JSON.stringify(v ?? {}); } catch { return String(v); }
}

function resultText(out) {
  if (typeof out === "string") return out;
  if (out && typeof out === "object" && "output" in out) return typeof out.output === "string" ? out.output : compact(out.output);
  return compact(out);
}
