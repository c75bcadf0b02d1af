// npm-consumer.tsx — a TypeScript program that uses every export of the
// toolnexus-wasm package, as an app would. tests/npm-package.test.mjs
// copies it into a scratch app where the package is installed from its
// tarball and compiles it with `tsc --strict --noEmit` (lib checks on, so
// the package's own .d.mts files are checked too). It is compiled, never run:
// npm-types.ts is the part that runs.

import { useState } from "react";
import { Chat, useChat } from "@ai-sdk/react";
import { lastAssistantMessageIsCompleteWithApprovalResponses, type ChatTransport, type UIMessage } from "ai";
import {
  load, wasmURL, defineTool, relayTool, httpTool, answerOutput, answerDeclined, answerOutcome, answerRunAgain, relayAnswer,
  approvalDialog, chatTransport,
  type Answer, type Client, type JSONSchema, type Journal, type LeftForLater, type Request, type RunResult, type StreamEvent,
  type Toolkit, type Toolnexus, type WaitFor, type ApprovalRule, type DecisionEntry, type Grant, type DecisionsVerdict,
} from "toolnexus-wasm";
import { browserJournal, recordedEvents, type BrowserJournal } from "toolnexus-wasm/browser-journal";
import { ToolnexusChatElement, type ToolCallEventDetail } from "toolnexus-wasm/element";
import { chatTransport as transportOnly, transcript } from "toolnexus-wasm/chat-transport";
import { approvalDialog as dialogOnly, ApprovalDialog, adoptStyles } from "toolnexus-wasm/approval-dialog";
import { demoModel, help } from "toolnexus-wasm/demo-model";

const orderSchema: JSONSchema = {
  type: "object",
  properties: { order: { type: "string", description: "the order number" } },
  required: ["order"],
};

// A tool with typed arguments: run sees {order: string}.
const refund = defineTool<{ order: string }>({
  name: "refund",
  description: "Refund an order",
  inputSchema: orderSchema,
  needsApproval: true,
  run: async ({ order }, ctx) => (ctx.answer ? `refunded order ${order} (${ctx.callId})` : `refunded order ${order}`),
});
const lookup = httpTool({ name: "lookup", http: { url: "https://shop.example/orders/{order}", headers: { authorization: "Bearer ${SHOP_TOKEN}" } } });
// Idempotent tools: run again with the same key after a cut, never asked about.
const charge = defineTool<{ order: string }>({ name: "charge", inputSchema: orderSchema, needsApproval: true, idempotent: true,
  run: ({ order }, ctx) => `charged order ${order} once under ${ctx.idempotencyKey}` });
const chargeHttp = httpTool({ name: "charge_http", needsApproval: true, idempotent: true, http: { method: "POST", url: "https://shop.example/charge" } });
const pick = relayTool("pick", "The host picks", orderSchema);
const pickToo = relayTool({ name: "pick_too" });

// A rule as waitFor: approves order 42, declines the rest with a reason.
const rule: WaitFor = (request: Request): Answer =>
  request.kind === "approval" && request.data?.args?.order === "42"
    ? { id: request.id, ok: true }
    : answerDeclined(request.id, "only order 42 today");

export async function node(): Promise<string> {
  const tnx: Toolnexus = await load({ wasm: wasmURL() });
  const toolkit: Toolkit = await tnx.createToolkit({ tools: [refund, lookup, pick, pickToo], variables: { SHOP_TOKEN: "t" } });
  const client: Client = await tnx.createClient({ ...demoModel(), waitFor: rule, maxTurns: 4 });
  const done: RunResult = await client.run("refund order 42", toolkit);
  const names: string[] = (await toolkit.tools()).map((t) => t.name);
  for await (const event of client.stream("refund order 7", toolkit)) {
    const e: StreamEvent = event;
    if (e.type === "text") console.log(e.delta);
    else if (e.type === "tool_result" && e.declined) console.log("declined:", e.output ?? "");
    else if (e.type === "done") console.log(e.result.status, e.result.usage.totalTokens);
  }
  // No waitFor: the run halts, and runWithAnswer resumes it.
  const halting = await tnx.createClient(demoModel());
  const halted = await halting.run("refund order 42", toolkit);
  if (halted.status === "pending" && halted.pending) {
    const resumed = await halting.runWithAnswer(toolkit, halted.messages, halted.pending, answerOutput(halted.pending.id, "ok"));
    console.log(resumed.text, resumed.toolCalls.map((c) => [c.name, c.declined ?? false]));
  }
  const conv = client.conversation();
  const first = await conv.run("refund order 42", toolkit);
  console.log(first.status, (await conv.messages()).length, await client.metrics());
  const translated = await client.translate({ messages: [{ role: "user", content: "hi" }] });
  console.log(translated.finishReason, relayAnswer("req_1", [{ id: "c1", output: "7" }]).ok);
  console.log(help(null), tnx.version, tnx.agentsLinked, await toolkit.execute("refund", { order: "1" }));
  // Approval rules, "allow for this conversation" and the record.
  const rules: ApprovalRule[] = [
    { name: "small refunds", tool: "refund", when: [{ path: "amount", op: "<=", value: 50 }], decision: "allow" },
    { tool: "delete_*", decision: "deny", reason: "not from chat" },
    { source: "mcp", server: "github", decision: "ask" },
  ];
  const wire = defineTool({ name: "wire", needsApproval: "always", run: () => "wired" });
  const ruled = await tnx.createToolkit({ tools: [refund, wire], approvalRules: rules, onDecision: (e: DecisionEntry) => console.log(e.decision, e.hash) });
  const granting = await tnx.createClient({ ...demoModel(), waitFor: (r: Request) => ({ id: r.id, ok: true, data: { grant: "args" } }) });
  const decided = await granting.run("refund order 42", ruled, { conversation: conv.id });
  const grants: Grant[] = await ruled.grants(conv.id);
  const revoked: DecisionEntry | null = await ruled.revoke(conv.id, grants[0]?.id ?? "", { approver: "in page" });
  const verdict: DecisionsVerdict = await tnx.verifyDecisions(await ruled.exportDecisions(), { head: await ruled.decisionsHead() });
  if (!verdict.ok) console.log(verdict.index, verdict.seq, verdict.error);
  console.log(decided.decisions?.map((d) => d.decision), (await ruled.decisions()).length, revoked?.decision);
  await ruled.close();
  await toolkit.close();
  return `${done.text} ${names.join(",")}`;
}

// A journaled run: cut off anywhere, continued from its journal; a question
// about a lost outcome answered, or left for later.
export async function journaled(tnx: Toolnexus): Promise<RunResult> {
  const toolkit = await tnx.createToolkit({ tools: [refund, charge, chargeHttp] });
  const journal: BrowserJournal = browserJournal("order-42", { durability: "relaxed" });
  const own: Journal = { load: async () => [], record: async (key: string, entry: string) => { console.log(key, entry.length); } };
  const asks: WaitFor = (request): Answer | LeftForLater => (request.kind === "outcome_unknown"
    ? (request.data?.attempts ?? 0) > 1 ? { id: request.id, later: true } : answerOutcome(request.id, "seen in the ledger")
    : { id: request.id, ok: true });
  const client = await tnx.createClient({ ...demoModel(), waitFor: asks });
  await client.run("refund order 42", toolkit, { journal });
  for await (const e of client.stream("refund order 42", toolkit, { journal: own })) console.log(e.type);
  if (await journal.unfinished()) {
    for (const e of recordedEvents(await journal.load())) console.log(e.type);
    for await (const e of client.streamContinue(toolkit, journal)) console.log(e.type);
  }
  const halting = await tnx.createClient(demoModel());
  const halted = await halting.continue(toolkit, journal);
  const next = halted.pending?.kind === "outcome_unknown" ? answerRunAgain(halted.pending.id) : answerDeclined(halted.pending?.id ?? "", "no");
  const res = await halting.continue(toolkit, journal, { answer: next, signal: AbortSignal.timeout(60_000) });
  await journal.clear();
  console.log(journal.name, journal.kind, await journal.ready());
  return res;
}

export async function team(): Promise<void> {
  const tnx = await load({ wasm: wasmURL("tools") });
  const billing = tnx.createAgent({ name: "billing", does: "Refunds orders", instructions: "You are billing.", tools: [refund] });
  const support = tnx.createAgent({ name: "support", instructions: "You are support.", team: [billing], budget: { maxTurns: 8 } });
  const halted = await support.run("review order 42", demoModel());
  if (halted.status === "pending" && halted.pending && halted.runtime) {
    const snapshot = await halted.runtime.snapshot();
    await halted.runtime.release();
    const rt = await tnx.restoreRuntime({ ...demoModel(), agent: support }, snapshot);
    const declined = await rt.resume(tnx.answerDeclined(halted.pending.id, "already refunded"));
    console.log(declined.text, (await rt.list()).map((h) => h.path.join(" › ")));
    await rt.release();
  }
  const rt = await tnx.createRuntime({ ...demoModel(), agent: support, onEvent: (e) => console.log(e.handle, e.state) });
  console.log((await rt.run("review order 7")).status);
  await rt.release();
}

// The AI SDK: useChat and Chat take the transport as their ChatTransport.
export function ChatPanel({ client, toolkit }: { client: Client; toolkit: Toolkit }) {
  const [transport] = useState(() => chatTransport({ client, toolkit }));
  const { messages, sendMessage, addToolApprovalResponse } = useChat({
    transport,
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
  });
  return (
    <div>
      {messages.map((m) => <p key={m.id}>{m.parts.map((p) => p.type).join(" ")}</p>)}
      <button onClick={() => sendMessage({ text: "refund order 42" })}>Send</button>
      <button onClick={() => addToolApprovalResponse({ id: "approval-1", approved: true })}>Approve</button>
    </div>
  );
}

export function chats(client: Client, toolkit: Toolkit, tnx: Toolnexus): ChatTransport<UIMessage>[] {
  const chat = new Chat({ transport: transportOnly({ client, toolkit, style: "openai" }) });
  const support = tnx.createAgent({ name: "support" });
  const teamTransport: ChatTransport<UIMessage> = chatTransport({ agent: support, model: demoModel() });
  console.log(chat.id, transcript([{ id: "m1", role: "user", parts: [{ type: "text" }] }], "anthropic").length);
  return [teamTransport];
}

// The approval dialog on its own, and the element with its typed events.
export async function page(tnx: Toolnexus): Promise<void> {
  const ask = approvalDialog({ agent: "the agent at agent.example.workers.dev" });
  const askToo = dialogOnly({ document, parent: document.body });
  const dialog = new ApprovalDialog();
  adoptStyles(document, "my-style", "p { color: red }");
  const client = await tnx.createClient({ ...demoModel(), waitFor: ask });
  const request: Request = { id: "req_1", kind: "approval", prompt: "Allow?", data: { tool: "refund", args: { order: "42" } } };
  const answers: Array<Answer | LeftForLater> = [await askToo(request), await dialog.ask(request, { signal: AbortSignal.timeout(1000) })];
  // A question about a lost outcome may be left for later: not an Answer.
  console.log(client, answers.map((a) => ("later" in a ? "later" : a.ok)));

  ToolnexusChatElement.define();
  const chat = document.createElement("toolnexus-chat");
  const same: ToolnexusChatElement = chat;
  chat.demo = true;
  chat.maxTurns = 6;
  chat.tools = [refund];
  chat.variables = { SHOP_TOKEN: "t" };
  chat.apiKey = undefined;
  chat.addEventListener("toolnexus:tool-call", (e) => {
    const d: ToolCallEventDetail = e.detail;
    console.log(d.name, d.declined);
  });
  chat.addEventListener("toolnexus:pending", (e) => console.log(e.detail.request.prompt));
  chat.addEventListener("toolnexus:done", (e) => console.log(e.detail.result.status));
  chat.addEventListener("toolnexus:error", (e) => console.log(e.detail.message));
  document.body.append(same);
  const result = await chat.send("refund order 42");
  console.log(result?.text, chat.busy, chat.apiStyle, chat.endpoint, chat.waitLimit);
  chat.reset();
}
