// demo.mjs — wires the demo page: model picker, composer, transcript.
// Every string from the model or a tool reaches the page through textContent.
//
// - Replies stream: text grows as the model writes it, tool calls and results
//   appear as they happen (client.stream). The offline demo model always
//   streams; an endpoint streams when "Stream replies" is ticked.
// - The conversation is kept in this browser (web/store.mjs), so a reload
//   shows it again and continues it. The API key is never stored.
// - Approvals are durable (web/durable-wait.mjs): a request still unanswered
//   when the page is hidden or unloaded, or after the wait limit (5 minutes,
//   or ?wait-limit=<seconds>), halts the run and is saved; the same dialog
//   comes back when the page is visible again or on the next load, and the
//   run resumes with the answer (client.runWithAnswer).
// - Each run is journaled in IndexedDB (web/browser-journal.mjs): a tab that
//   dies mid-run — a crashed renderer, no unload event — continues the run
//   when the page opens again: a model call in flight is made again, a
//   recorded outcome is reused, and an approved call that began without a
//   recorded outcome is asked about in the dialog ("did it happen?"), never
//   run again blindly. The conversation is saved with the run's prompt when
//   a run starts (saved.run), and without it when the run is over.
// - ?slow=<ms> paces the offline model's stream (ms per chunk) and
//   ?tool-delay=<ms> makes each tool call take that long: to watch a run,
//   or to close the tab in the middle of a model call or of a tool call.
// - "review order 42" goes to an agent team (web/demo-team.mjs): support
//   hands the refund to its billing sub-agent; the dialog names the asking
//   agent ("support › billing"); the halted tree is saved before the dialog
//   opens, so a reload brings the same dialog back (runtime.snapshot() and
//   tnx.restoreRuntime).

import { load, approvalDialog } from "./toolnexus.mjs";
import { demoModel } from "./demo-model.mjs";
import { demoTools, refund } from "./demo-tools.mjs";
import { demoTeam, isTeamPrompt, pathText, teamRunner, TEAM_STORE_ID } from "./demo-team.mjs";
import { pacedFetch } from "./chat-engine.mjs";
import { browserStore } from "./store.mjs";
import { durableWait, HIDDEN, LATER } from "./durable-wait.mjs";
import { browserJournal, recordedEvents } from "./browser-journal.mjs";
import { filesPanel } from "./files-panel.mjs";
import { answerLabel, resultView, waitingStatus } from "./outcome.mjs";
import { endpointProblem } from "./demo-endpoint.mjs";
import { decisionsView } from "./decisions-view.mjs";
import { decisionNote } from "./outcome.mjs";
import { wasmURL } from "./wasm-urls.mjs";

const $ = (id) => document.getElementById(id);
const ui = {
  transcript: $("transcript"), busy: $("busy"), form: $("composer"), message: $("message"),
  send: $("send"), reset: $("reset"), answer: $("answer"), endpoint: $("endpoint"), baseURL: $("base-url"),
  model: $("model-name"), apiKey: $("api-key"), stream: $("stream"),
};
const DEFAULTS = {
  openai: { baseURL: "https://api.openai.com/v1", model: "gpt-4o-mini" },
  anthropic: { baseURL: "https://api.anthropic.com", model: "claude-3-5-haiku-latest" },
};
const STORE_ID = "demo";
const WAIT_LIMIT_MS = (Number(new URLSearchParams(location.search).get("wait-limit")) || 300) * 1000;
const SLOW_MS = Math.max(0, Number(new URLSearchParams(location.search).get("slow")) || 0);
const TOOL_DELAY_MS = Math.max(0, Number(new URLSearchParams(location.search).get("tool-delay")) || 0);

let tnx = null;
let toolkit = null;
let team = null; // the support → billing team's runner (demo-team.mjs)
let history = []; // result.messages of the last finished run: the conversation so far
let view = [];    // the transcript as data ({kind, who, text, isError}), saved with the conversation
let halted = null; // {messages, pending, why, journaled}: a run saved while waiting for an answer
// The run in progress (or cut off, when restored): {prompt}. It is saved
// with the conversation while the run goes on, so a page that dies mid-run
// knows to continue it from the journal on the next load.
let running = null;
let busy = false;
// Call ids whose call / result is already in the transcript. Events, tools and
// waitFor show calls live; after a run, anything the core decided alone (an
// unknown tool, bad arguments, a timeout) is filled in from result.toolCalls.
let shownCalls = new Set();
let shownResults = new Set();
// Each tool call's transcript line by call id, so the answer to an approval
// lands on the call's own line — also after a reload, which rebuilds the
// lines from the saved view (its items keep the call id).
let callLines = new Map();
// The conversation an approval's "allow for this conversation" holds in (a
// new one with each new conversation), the grants given in it ({entry,
// notes}) and decisions about calls whose line is not shown yet.
let conversation = newConversationID();
let grants = new Map();
let decided = new Map();
const approve = approvalDialog({ allowFor: "conversation" });
// The Decisions view: the toolkit's record of who approved what (issue 32).
let decisions = null;
// The built-in tools' virtual file system, shown in the Files panel (and kept
// in IndexedDB while "Keep files" is ticked).
const files = filesPanel({ list: $("files"), persist: $("files-persist") });
const store = browserStore();
// One run at a time: the journal holds the run in progress (cleared once
// its result is saved with the conversation).
const journal = browserJournal("demo");
const durable = durableWait({
  ask: approve, store, id: STORE_ID, limitMs: WAIT_LIMIT_MS,
  extra: () => ({ view, settings: settings(), ...(running ? { run: running } : {}) }),
});

// The page takes input at once: a message sent before the agent is ready is
// shown and waits for it (untilReady); the status line says it is loading.
// IndexedDB only: the saved conversation shows while the wasm loads. A
// message sent meanwhile waits for it (a saved request or a run cut off by
// a closed page comes first).
const restored = restore().catch((err) => console.warn("toolnexus demo: the saved conversation was not read:", err));
const started = start();

async function start() {
  showLoading();
  try {
    // The tools build: built-in tools (question, write, …) and skills.
    tnx = await load({ wasm: wasmURL("tools") });
    toolkit = await tnx.createToolkit({ tools: demoTools().map(shown), ...(await files.toolkitOptions()), onDecision: showDecision });
    await files.attach(toolkit);
    decisions = decisionsView({ document, toolkit, verify: tnx.verifyDecisions, conversation: () => conversation });
    $("decisions").replaceChildren(decisions.element);
    decisions.refresh().catch(() => {});
    team = teamRunner({ tnx, store, ask: approve, team: demoTeam(tnx, { refund: shown(refund) }), model: () => modelOptions(picked()), view: teamView });
  } catch (err) {
    toolkit = null;
    if (!busy) ui.busy.textContent = "";
    entry("error", "Error", `Could not start the agent: ${err.message}`, true);
    return;
  } finally {
    await restored;
  }
  const teamSaved = await team.saved();
  performance.mark("toolnexus:ready");
  document.documentElement.dataset.ready = "1";
  if (!busy) ui.busy.textContent = halted ? "A request is waiting for your approval (saved)." : "";
  if (busy) return; // a message sent while loading runs now; a saved request waits its turn
  if (teamSaved) resumeTeam(teamSaved);
  else if (halted && document.visibilityState === "visible") offerHalted();
  else if (running && !halted) continueCutOff();
}

// showLoading: what the page shows until the agent is ready.
function showLoading() {
  ui.busy.textContent = "Loading the agent…";
  if (document.activeElement === document.body) ui.message.focus();
}

// untilReady waits, after a message was sent before the agent was ready,
// until start() is done; it throws if the agent could not start.
async function untilReady() {
  if (toolkit && team) return;
  ui.busy.textContent = "Loading the agent… your message is sent once it is ready.";
  await started;
  if (!toolkit || !team) throw new Error("The agent could not start: reload the page to try again.");
  ui.busy.textContent = "Working…";
}

// teamView shows a team run in the transcript (demo-team.mjs calls it).
const teamView = {
  call(request) {
    const data = request.data ?? {};
    if (data.callId) shownCalls.add(data.callId);
    ui.busy.textContent = waitingStatus(request);
    return entry("tool-call", `Tool call · ${pathText(data.path)} · waiting for your approval`, `${data.tool} ${compact(data.args)}`, false, data.callId);
  },
  answered(line, request, answer) {
    const data = request.data ?? {};
    if (data.callId) shownCalls.add(data.callId); // shown before the answer, maybe by an earlier page
    ui.busy.textContent = "Working…";
    showAnswer(line, request, answer, ` · ${pathText(data.path)}`);
  },
  spawned(path) {
    entry("note", "Team", `${path.at(-2)} handed a task to ${path.at(-1)}`);
  },
  finished(result) {
    if (result.text) entry("assistant", "Assistant", result.text, result.isError);
    if (result.status !== "done") entry("error", "Note", `The team stopped (${result.status}${result.limit ? `: ${result.limit}` : ""}).`, true);
  },
  saveView: () => save(),
};

// resumeTeam brings back a team run saved while its dialog was open.
async function resumeTeam(saved) {
  setBusy(true);
  ui.busy.textContent = waitingStatus(saved.pending); // as for a single agent's saved request
  try {
    await team.resume(saved);
  } catch (err) {
    entry("error", "Error", err?.message ?? String(err), true);
  } finally {
    shownCalls = new Set();
    shownResults = new Set();
    setBusy(false);
  }
}

// restore shows the saved conversation, if any, and remembers a saved request.
async function restore() {
  const saved = await store.get(STORE_ID).catch(() => null);
  if (!saved) return;
  const s = saved.settings ?? {};
  const radio = document.querySelector(`input[name="provider"][value="${s.kind === "openai" || s.kind === "anthropic" ? s.kind : "demo"}"]`);
  radio.checked = true;
  ui.endpoint.hidden = radio.value === "demo";
  if (radio.value !== "demo") {
    ui.baseURL.value = typeof s.baseURL === "string" ? s.baseURL : DEFAULTS[radio.value].baseURL;
    ui.model.value = typeof s.model === "string" ? s.model : DEFAULTS[radio.value].model;
    ui.stream.checked = !!s.stream;
  }
  history = saved.messages;
  if (typeof saved.conversation === "string" && saved.conversation) conversation = saved.conversation;
  for (const v of Array.isArray(saved.view) ? saved.view : []) {
    if (v && typeof v === "object") entry(String(v.kind), String(v.who), String(v.text ?? ""), !!v.isError, v.callId);
  }
  if (saved.run && typeof saved.run.prompt === "string") running = { prompt: saved.run.prompt };
  if (saved.pending && typeof saved.pending === "object") {
    setHalted({ messages: saved.messages, pending: saved.pending, journaled: !!running, why: saved.why });
  }
}

// settings is what is saved about the model: never the key.
function settings() {
  const kind = document.querySelector('input[name="provider"]:checked')?.value ?? "demo";
  return kind === "demo" ? { kind } : { kind, baseURL: ui.baseURL.value.trim(), model: ui.model.value.trim(), stream: ui.stream.checked };
}

function save() {
  return store.save(STORE_ID, history, { view, settings: settings(), conversation, ...(halted ? { pending: halted.pending, why: halted.why } : {}),
    ...(running ? { run: running } : {}) })
    .catch((err) => console.warn("toolnexus demo: the conversation was not saved:", err));
}

// runOver forgets the run in progress once its result is saved with the
// conversation: the journal is then no longer needed.
async function runOver() {
  running = null;
  await save();
  await journal.clear().catch((err) => console.warn("toolnexus demo: the run's journal was not cleared:", err));
}

// shown wraps a tool so its call and result appear in the transcript as they happen.
function shown(tool) {
  return {
    ...tool,
    async run(args, ctx) {
      const id = ctx?.callId;
      if (!shownCalls.has(id)) showCall(id, tool.name, args);
      if (TOOL_DELAY_MS) await new Promise((r) => setTimeout(r, TOOL_DELAY_MS));
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

// waitFor shows the call, asks the person (durably), and then shows the
// answer on the call's line: approved, approved with edited arguments (and
// the arguments that run), or declined with the reason.
async function waitFor(request, opts) {
  const data = request?.data ?? {};
  const question = request?.kind === "outcome_unknown" ? " · did it happen?" : " · waiting for your approval";
  const line = typeof data.tool === "string" && !shownCalls.has(data.callId)
    ? showCall(data.callId, data.tool, data.args, question) : null;
  if (!line && request?.kind === "outcome_unknown") callLines.get(data.callId)?.relabel(`Tool call${question}`);
  ui.busy.textContent = waitingStatus(request);
  let answer;
  try {
    answer = await durable.waitFor(request, opts); // throws when the run was halted and saved instead
  } finally {
    ui.busy.textContent = "Working…";
  }
  showAnswer(line, request, answer);
  return forTheRecord(request, answer);
}

// forTheRecord adds who answered an approval, and where, to the answer
// (the record's approver and from: core/approval).
function forTheRecord(request, answer) {
  if (request?.kind !== "approval" || !answer || typeof answer.ok !== "boolean") return answer;
  return { ...answer, data: { ...answer.data, approver: "in page", from: "tab" } };
}

// showDecision writes a decision of the record (core/approval) on its
// call's line: the rule that allowed or denied it, the earlier "allow for
// this conversation" that approved it (with Revoke), or that an approval
// allowed its tool for the rest of the conversation (with Revoke); a
// revocation updates the grant's lines. The Decisions view follows.
function showDecision(entry) {
  queueMicrotask(() => decisions?.refresh().catch(() => {}));
  if (!entry || typeof entry !== "object") return;
  if (entry.decision === "revoked") {
    for (const n of grants.get(entry.request)?.notes ?? []) {
      n.revoke.remove();
      n.note.textContent = decisionNote(entry);
    }
    grants.delete(entry.request);
    return;
  }
  if (entry.grant) grants.set(entry.request, { entry, notes: [] });
  const grant = grants.get(entry.grant ? entry.request : entry.grantedBy);
  const text = decisionNote(entry, { granting: entry.grantedBy ? grant?.entry : null });
  if (!text || typeof entry.call !== "string") return;
  const line = callLines.get(entry.call);
  if (!line) return void decided.set(entry.call, entry);
  if (entry.grantedBy) line.relabel("Tool call · approved by your earlier decision");
  else if (entry.decision === "allowed") line.relabel("Tool call · allowed by a rule");
  else if (entry.decision === "denied") line.relabel("Tool call · denied by a rule");
  const note = document.createElement("p");
  note.className = "decision";
  note.textContent = text;
  line.attach(note);
  if (!grant) return;
  const revoke = document.createElement("button");
  revoke.type = "button";
  revoke.className = "revoke";
  revoke.textContent = "Revoke";
  const id = grant.entry.request;
  revoke.addEventListener("click", async () => {
    revoke.disabled = true;
    const gone = await toolkit.revoke(conversation, id);
    if (gone) showDecision(gone);
  });
  line.attach(revoke);
  grant.notes.push({ note, revoke });
}

// newConversationID names a conversation: its grants hold there.
function newConversationID() {
  const b = new Uint8Array(8);
  crypto.getRandomValues(b);
  return `conv_${Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("")}`;
}

// showAnswer records the person's answer to an approval on the call's line
// (line, else the one shown for data.callId, also by an earlier page): how it
// was answered, and for an edit the arguments that run, with the model's
// beside them; for a call whose outcome was lost, what was recorded
// (happened, ran again, not done). where names the asking agent (" ·
// support › billing"). {later: true} is no answer: nothing to show.
function showAnswer(line, request, answer, where = "") {
  const data = request?.data ?? {};
  if (typeof data.tool !== "string" || !answer || answer.later) return;
  line ??= callLines.get(data.callId) ?? null;
  const label = `Tool call${where} · ${answerLabel(answer, request).toLowerCase()}`;
  const text = answer.ok && answer.data?.args ? editedText(data.tool, answer.data.args, data.args) : "";
  if (line) {
    line.relabel(label);
    if (text) line.rewrite(text);
  } else {
    entry("tool-call", label, text || `${data.tool} ${compact(data.args)}`, false, data.callId);
  }
  if (!answer.ok && request?.kind !== "outcome_unknown") showResult(data.callId, "", false, { declined: true, reason: answer.reason });
}

// editedText: what ran after an edit, and what the model had asked for.
function editedText(tool, args, original) {
  return `${tool} ${compact(args)}\n(the model asked for ${compact(original)})`;
}

// client returns a client for the picked model, reusing it while the settings
// stay the same (the key lives only in this closure and the input field).
let cached = { key: "", client: null };
function client() {
  const s = picked();
  const key = JSON.stringify(s);
  if (cached.key !== key || !cached.client) cached = { key, client: makeClient(s) };
  cached.client.catch(() => { if (cached.key === key) cached = { key: "", client: null }; });
  return cached.client;
}

// picked is the model settings with the key (never saved).
function picked() {
  const kind = document.querySelector('input[name="provider"]:checked')?.value ?? "demo";
  return kind === "demo" ? { kind } : {
    kind, baseURL: ui.baseURL.value.trim(), model: ui.model.value.trim(), apiKey: ui.apiKey.value,
  };
}

// endpointReady checks the endpoint fields before anything is sent
// (endpointProblem): the status line says what to fill in, and the field
// gets focus.
function endpointReady() {
  for (const f of [ui.baseURL, ui.model, ui.apiKey]) f.removeAttribute("aria-invalid");
  const problem = endpointProblem({ ...settings(), hasKey: ui.apiKey.value !== "" });
  if (!problem) return true;
  const field = { baseURL: ui.baseURL, model: ui.model, apiKey: ui.apiKey }[problem.field];
  field.setAttribute("aria-invalid", "true");
  field.focus();
  ui.busy.textContent = problem.why;
  return false;
}

function makeClient(s) {
  const common = { waitFor, systemPrompt: "You are a helpful assistant. Use the tools when they help.", maxTurns: 8 };
  return tnx.createClient({ ...modelOptions(s), ...common });
}

// modelOptions: the picked model as createClient / createRuntime options.
function modelOptions({ kind, baseURL, model, apiKey }) {
  if (kind === "demo") {
    const m = demoModel({ team: true }); // this page gives review prompts to its team (isTeamPrompt)
    return { ...m, fetch: pacedFetch(m.fetch, SLOW_MS) };
  }
  // Anthropic refuses browser calls unless the page opts in explicitly.
  const headers = kind === "anthropic" ? { "anthropic-dangerous-direct-browser-access": "true" } : undefined;
  return { style: kind, headers, baseURL, model, apiKey };
}

ui.form.addEventListener("submit", async (e) => {
  e.preventDefault();
  if (!busy) await restored; // at once, unless the page has just opened
  if (halted && !busy) return offerHalted(); // the waiting request comes first; the draft stays
  if (running && !busy) return continueCutOff(); // so does a run cut off by a closed page
  const prompt = ui.message.value.trim();
  if (!prompt || ui.send.disabled) return;
  if (!endpointReady()) return; // the draft stays; the status line says what is missing
  ui.message.value = "";
  entry("user", "You", prompt);
  setBusy(true);
  const live = { entry: null, text: false };
  try {
    await untilReady();
    if (isTeamPrompt(prompt)) {
      await team.run(prompt); // demo-team.mjs: its own runtime, not this conversation's history
      return;
    }
    const c = await client();
    // A new run: the journal's leftovers (a run whose result is saved) go,
    // and the prompt is saved before the run starts, so a page that dies
    // from here on continues this run on its next load (continueCutOff).
    await journal.clear();
    running = { prompt };
    await save();
    await runJournaled(c, prompt, live);
  } catch (err) {
    // The conversation stays as it was before this message, so the next send works.
    entry("error", "Error", err?.message ?? String(err), true);
    if (running) await runOver();
  } finally {
    shownCalls = new Set();
    shownResults = new Set();
    setBusy(false);
    offerIfBack();
  }
});

// runJournaled runs prompt, journaled — or continues the run the journal
// holds — streaming to the transcript, and shows and saves its result.
async function runJournaled(c, prompt, live) {
  const streaming = settings().kind === "demo" || ui.stream.checked;
  const result = await durable.run(
    (signal) => (streaming ? c.stream(prompt, toolkit, { history, signal, journal, conversation })
      : c.run(prompt, toolkit, { history, signal, journal, conversation })),
    { onEvent: (ev) => onEvent(ev, live) });
  await finishRun(result, live);
}

// continueCutOff continues a run the page was closed in the middle of (no
// unload: a crashed tab), from its journal: what was recorded is shown
// first, then the run goes on — a model call in flight is made again, and
// an approved call whose outcome was lost is asked about in the dialog.
async function continueCutOff() {
  const run = running;
  if (!run || busy || halted) return;
  if (!endpointReady()) return; // the status line says what to fill in; Send continues the run then
  setBusy(true);
  const live = { entry: null, text: false };
  try {
    await untilReady();
    entry("note", "Note", "The page closed while a run was going on: it continues from where it stopped.");
    const recorded = await journal.load();
    const shown = { entry: null, text: false };
    for (const ev of recordedEvents(recorded)) {
      if (ev.type !== "answer") { onEvent(ev, shown); continue; }
      const callId = ev.request?.data?.callId;
      if (callId && !callLines.has(callId)) showCall(callId, ev.request.data.tool, ev.request.data.args);
      showAnswer(null, ev.request, ev.answer);
    }
    // A run that ended before its result was saved: the replay showed its answer.
    if (shown.text && /"kind"\s*:\s*"end"/.test(recorded.at(-1) ?? "")) live.text = true;
    await runJournaled(await client(), run.prompt, live);
  } catch (err) {
    entry("error", "Error", err?.message ?? String(err), true);
    if (running) await runOver();
  } finally {
    shownCalls = new Set();
    shownResults = new Set();
    setBusy(false);
    offerIfBack();
  }
}

// Send is disabled in the markup until the handler above is in place: the
// box takes typing at once, but a form submitted before this module ran
// would reload the page (a disabled default button blocks Enter too).
ui.send.disabled = busy;

// onEvent shows a streamed run as it happens.
function onEvent(e, live) {
  switch (e?.type) {
    case "text":
      if (!e.delta) return;
      live.entry ??= entry("assistant", "Assistant", "");
      live.entry.append(e.delta);
      live.text = true;
      return;
    case "tool_call":
      live.entry = null;
      if (!shownCalls.has(e.id)) showCall(e.id, e.name, e.args);
      return;
    case "tool_result":
      live.entry = null;
      if (!shownCalls.has(e.id)) showCall(e.id, e.name, "");
      if (!shownResults.has(e.id)) showResult(e.id, e.output ?? "", !!e.isError, { declined: !!e.declined });
      return;
    default:
      live.entry = null;
  }
}

// finishRun shows what the run left and saves the conversation; the page
// goes idle only once the save has committed (a reload then keeps it).
function finishRun(result, live) {
  history = result.messages ?? history;
  for (const call of result.toolCalls ?? []) {
    if (!shownCalls.has(call.id)) showCall(call.id, call.name, call.args);
    if (!shownResults.has(call.id)) showResult(call.id, call.output, call.isError, { declined: !!call.declined });
  }
  if (result.durable) {
    entry("note", "Note", result.why === LATER
      ? "Left for later: nothing was recorded. The question comes back with \u201cAnswer the waiting request\u201d or on your next visit."
      : "Your approval is still needed. The request is saved: it comes back when you return to this page.");
    // The journal keeps the halted run (running stays): continue goes on from it.
    setHalted({ messages: result.messages, pending: result.pending, why: result.why, journaled: !!running });
    return save();
  }
  if (result.text && !live.text) entry("assistant", "Assistant", result.text);
  if (result.status === "incomplete") entry("error", "Note", `The run stopped early (${result.limit || "turn limit"}).`, true);
  if (result.status === "pending") entry("error", "Note", "The run is waiting on a request this page cannot answer.", true);
  return runOver();
}

function setHalted(h) {
  halted = h;
  ui.answer.hidden = !h;
}

// offerHalted shows the saved request again (the same dialog) and resumes the
// halted run with the person's answer.
async function offerHalted() {
  const h = halted;
  if (!h || busy || !toolkit) return;
  setBusy(true);
  ui.busy.textContent = waitingStatus(h.pending);
  try {
    let answer;
    try {
      answer = await approve(h.pending);
    } catch (err) {
      answer = { ok: false, reason: err?.message ?? String(err) };
    }
    if (halted !== h) return; // a new conversation started meanwhile
    if (answer?.later) return; // left for later again: still saved, nothing recorded
    answer = forTheRecord(h.pending, { ...answer, id: h.pending.id });
    // The answer is used once: from here on a reload must not run the tool again.
    setHalted(null);
    await save();
    const callId = h.pending.data?.callId;
    if (callId) shownCalls.add(callId); // the saved transcript shows the call already
    showAnswer(null, h.pending, answer);
    ui.busy.textContent = "Working…";
    const c = await client();
    // A journaled run goes on from its journal, the answer recorded first;
    // a run halted before journals (an older save) resumes from its transcript.
    const result = await durable.run((signal) => (h.journaled
      ? c.continue(toolkit, journal, { answer, signal, conversation })
      : c.runWithAnswer(toolkit, h.messages, h.pending, answer, { signal, conversation })));
    await finishRun(result, { text: false });
  } catch (err) {
    entry("error", "Error", err?.message ?? String(err), true);
  } finally {
    shownCalls = new Set();
    shownResults = new Set();
    setBusy(false);
    offerIfBack();
  }
}

ui.answer.addEventListener("click", () => offerHalted());

// Coming back to the page brings a request saved while it was hidden.
// A question left for later waits for the button or the next visit.
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible" && halted && halted.why !== LATER && !busy && document.documentElement.dataset.ready) offerHalted();
});

// offerIfBack runs when a run is over. The person may have come back while
// the hide's halt was still being saved: that visibilitychange found the
// page busy and did nothing (issue 33), so a request halted because the
// page was hidden is offered now if the page is visible again.
function offerIfBack() {
  if (halted?.why === HIDDEN && document.visibilityState === "visible") offerHalted();
}

ui.reset.addEventListener("click", () => {
  history = [];
  view = [];
  callLines = new Map();
  conversation = newConversationID(); // what was allowed for the last one does not carry over
  grants = new Map();
  decided = new Map();
  decisions?.refresh().catch(() => {});
  setHalted(null);
  running = null;
  journal.clear().catch(() => {});
  store.clear(STORE_ID).catch(() => {});
  store.clear(TEAM_STORE_ID).catch(() => {});
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
  busy = on;
  ui.send.disabled = on;
  ui.reset.disabled = on;
  ui.answer.disabled = on;
  document.getElementById("picker").disabled = on;
  ui.transcript.setAttribute("aria-busy", String(on));
  ui.busy.textContent = on ? "Working…" : halted ? "A request is waiting for your approval (saved)." : "";
  if (!on) ui.message.focus();
}

// entry appends one transcript line and returns a handle whose append(text)
// grows it (streamed text), relabel(who) and rewrite(text) change it. A tool
// call's line is kept under its callId (callLines), in the saved view too.
function entry(kind, who, text, isError = false, callId = undefined) {
  const div = document.createElement("div");
  div.className = `entry ${kind}${isError ? " is-error" : ""}`;
  const label = document.createElement("span");
  label.className = "who";
  label.textContent = who;
  if (kind === "declined") div.classList.add("tool-result");
  const body = document.createElement(kind.startsWith("tool") ? "code" : "span");
  body.textContent = kind.startsWith("tool") ? clip(String(text)) : text;
  div.append(label, body);
  ui.transcript.append(div);
  ui.transcript.scrollTop = ui.transcript.scrollHeight;
  const item = { kind, who, text: String(text), isError: !!isError };
  if (typeof callId === "string" && callId) item.callId = callId;
  if (kind !== "error" || who !== "Error") view.push(item); // errors are about this visit, not the conversation
  const handle = {
    append(more) {
      body.textContent += more;
      item.text += more;
      ui.transcript.scrollTop = ui.transcript.scrollHeight;
    },
    relabel(text) {
      label.textContent = text;
      item.who = text;
    },
    rewrite(text) {
      body.textContent = clip(String(text));
      item.text = String(text);
    },
    // attach shows node in the line for this visit only (not saved).
    attach(node) {
      div.append(node);
      ui.transcript.scrollTop = ui.transcript.scrollHeight;
    },
  };
  if (item.callId && kind === "tool-call") callLines.set(item.callId, handle);
  return handle;
}

// clip shortens a tool's text for display: laying out one unbroken run of a
// megabyte takes the browser seconds, and nobody reads it in a transcript.
function clip(text, max = 8000) {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters not shown)`;
}

function showCall(id, name, args, note = "") {
  if (id) shownCalls.add(id);
  const line = entry("tool-call", `Tool call${note}`, `${name} ${compact(args)}`, false, id);
  const waiting = id ? decided.get(id) : undefined; // a decision made before its line was shown
  if (waiting) {
    decided.delete(id);
    showDecision(waiting);
  }
  return line;
}

// showResult shows a call's result once; a decline is shown by the answer
// (showAnswer), so the core's result for it is not shown again.
function showResult(id, text, isError, { declined = false, reason = "" } = {}) {
  if (id && shownResults.has(id)) return;
  if (id) shownResults.add(id);
  const view = resultView({ output: text, isError, declined });
  if (reason) view.text = reason;
  entry(view.kind, view.who, view.text, view.isError);
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
