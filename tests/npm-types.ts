// npm-types.ts — what the package's types promise, checked at run time.
//
// Each list below names every member of an exported module or API object
// with the kind of value the .d.mts files declare for it ("function",
// "string", …; "x?" when it may be undefined). `satisfies Shape<T>` makes the
// compiler hold the list to the types: tsc --strict fails on a member the
// list lacks, one it adds, or a kind it gets wrong. tests/npm-package.test.mjs
// compiles this file beside npm-consumer.tsx, strips its types with esbuild
// and runs checkNode() against the installed package in Node;
// tests/npm-bundlers.test.mjs checks the element's list in Chromium.

import type * as Main from "toolnexus-wasm";
import type * as Element from "toolnexus-wasm/element";
import type * as Transport from "toolnexus-wasm/chat-transport";
import type * as Dialog from "toolnexus-wasm/approval-dialog";
import type * as Demo from "toolnexus-wasm/demo-model";
import type * as Journal from "toolnexus-wasm/browser-journal";

type Kind<V> = V extends (...args: any[]) => any ? "function"
  : V extends abstract new (...args: any[]) => any ? "function"
  : V extends string ? "string"
  : V extends boolean ? "boolean"
  : V extends number ? "number"
  : "object";
/** Every member of T with its kind; "kind?" when it may be undefined. */
type Shape<T> = { [K in keyof T]-?: undefined extends T[K] ? `${Kind<Exclude<T[K], undefined>>}?` : Kind<T[K]> };
type Members<T> = Shape<T>;

/** The exports of each entry point, exactly. */
export const MODULES = {
  "toolnexus-wasm": {
    load: "function", wasmURL: "function", defineTool: "function", relayTool: "function", httpTool: "function",
    answerOutput: "function", answerDeclined: "function", answerOutcome: "function", answerRunAgain: "function",
    relayAnswer: "function", approvalDialog: "function", chatTransport: "function",
  } satisfies Shape<typeof Main>,
  "toolnexus-wasm/element": { ToolnexusChatElement: "function" } satisfies Shape<typeof Element>,
  "toolnexus-wasm/chat-transport": { chatTransport: "function", transcript: "function" } satisfies Shape<typeof Transport>,
  "toolnexus-wasm/approval-dialog": { approvalDialog: "function", ApprovalDialog: "function", adoptStyles: "function", timeLeft: "function" } satisfies Shape<typeof Dialog>,
  "toolnexus-wasm/demo-model": { demoModel: "function", help: "function" } satisfies Shape<typeof Demo>,
  "toolnexus-wasm/browser-journal": { browserJournal: "function", recordedEvents: "function" } satisfies Shape<typeof Journal>,
};

/** The members of the objects the API hands out. */
export const OBJECTS = {
  Toolnexus: {
    version: "string", agentsLinked: "boolean", createToolkit: "function", createClient: "function",
    verifyDecisions: "function", defineTool: "function", relayTool: "function", httpTool: "function", answerOutput: "function",
    answerDeclined: "function", answerOutcome: "function", answerRunAgain: "function", relayAnswer: "function",
    approvalDialog: "function", createAgent: "function", createRuntime: "function", restoreRuntime: "function",
  } satisfies Members<Main.Toolnexus>,
  Toolkit: {
    raw: "object", tools: "function", execute: "function", mcpStatus: "function", a2aStatus: "function", files: "function",
    skillsPrompt: "function", skills: "function", decisions: "function", decisionsHead: "function",
    exportDecisions: "function", grants: "function", revoke: "function", close: "function",
  } satisfies Members<Main.Toolkit>,
  Client: {
    run: "function", stream: "function", continue: "function", streamContinue: "function", runWithAnswer: "function",
    streamWithAnswer: "function", translate: "function", conversation: "function", metrics: "function", close: "function",
  } satisfies Members<Main.Client>,
  BrowserJournal: {
    name: "string", kind: "string", ready: "function", load: "function", record: "function", unfinished: "function",
    clear: "function",
  } satisfies Members<Journal.BrowserJournal>,
  Conversation: {
    id: "string", run: "function", stream: "function", runWithAnswer: "function", streamWithAnswer: "function",
    messages: "function", close: "function",
  } satisfies Members<Main.Conversation>,
  RunResult: {
    text: "string", messages: "object", toolCalls: "object", toolCallCount: "number", turns: "number",
    usage: "object", model: "string", providerModel: "string?", status: "string", limit: "string?", pending: "object?",
    decisions: "object?",
  } satisfies Members<Main.RunResult>,
  Request: {
    id: "string", kind: "string", prompt: "string", url: "string?", data: "object?", expiresAt: "string?",
  } satisfies Members<Main.Request>,
  ToolInfo: {
    name: "string", description: "string", inputSchema: "object", source: "string", needsApproval: "boolean?",
    alwaysAsk: "boolean?",
  } satisfies Members<Main.ToolInfo>,
  Agent: {
    name: "string", does: "string", instructions: "string", tools: "object", team: "object", budget: "object?",
    model: "string?", waitFor: "function?", run: "function",
  } satisfies Members<Main.Agent>,
  AgentResult: {
    status: "string", text: "string", isError: "boolean", limit: "string?", pending: "object?", turns: "number",
    totalTokens: "number", runtime: "object?",
  } satisfies Members<Main.AgentResult>,
  Runtime: {
    run: "function", spawn: "function", post: "function", wake: "function", wait: "function", interrupt: "function",
    close: "function", list: "function", inspect: "function", resume: "function", snapshot: "function", release: "function",
  } satisfies Members<Main.Runtime>,
  ChatTransport: { sendMessages: "function", reconnectToStream: "function" } satisfies Members<Transport.ToolnexusChatTransport>,
  ApprovalDialog: { ask: "function" } satisfies Members<Dialog.ApprovalDialog>,
  DecisionEntry: {
    seq: "number", at: "string", run: "string?", conversation: "string?", call: "string?", tool: "string?",
    path: "object?", request: "string?", asked: "object?", ran: "object?", decision: "string", reason: "string?",
    rule: "string?", grant: "string?", grantedBy: "string?", approver: "string?", from: "string", prev: "string", hash: "string",
  } satisfies Members<Main.DecisionEntry>,
  Grant: { id: "string", tool: "string", scope: "string", args: "object?", approver: "string" } satisfies Members<Main.Grant>,
  DemoModel: { baseURL: "string", model: "string", style: "string", fetch: "function" } satisfies Members<Demo.DemoModel>,
  // The element's own members (what HTMLElement has is left out) and its class's statics.
  ToolnexusChatElement: {
    model: "string", baseUrl: "string", apiStyle: "string", systemPrompt: "string", maxTurns: "number?",
    endpoint: "string", demo: "boolean", wasm: "string", stream: "boolean", persist: "string", waitLimit: "number",
    tools: "object", variables: "object", apiKey: "string?", busy: "boolean", send: "function", reset: "function",
  } satisfies Members<Omit<Element.ToolnexusChatElement, keyof HTMLElement>>,
  ToolnexusChatElementClass: {
    define: "function", observedAttributes: "object",
  } satisfies Members<Omit<typeof Element.ToolnexusChatElement, keyof typeof HTMLElement>>,
};

/**
 * shapeProblems lists how value falls short of shape: a member missing or of
 * another kind. With exact, members the value has and the shape lacks too.
 */
export function shapeProblems(label: string, value: unknown, shape: Record<string, string>, { exact = false } = {}): string[] {
  if (value === null || (typeof value !== "object" && typeof value !== "function")) return [`${label}: not an object (${typeof value})`];
  const v = value as Record<string, unknown>;
  const out: string[] = [];
  for (const [key, want] of Object.entries(shape)) {
    const optional = want.endsWith("?");
    const kind = want.replace(/\?$/, "");
    const got = v[key];
    if (got === undefined) {
      if (!optional) out.push(`${label}.${key}: missing (the types say ${want})`);
      continue;
    }
    const gotKind = got === null ? "null" : typeof got;
    if (gotKind !== kind) out.push(`${label}.${key}: a ${gotKind}, the types say ${want}`);
  }
  if (exact) for (const key of Object.keys(v)) if (!(key in shape)) out.push(`${label}.${key}: there at run time, not in the types`);
  return out;
}

/** checkNode loads the installed package in Node and checks every shape it can reach there. */
export async function checkNode(): Promise<string[]> {
  const out: string[] = [];
  for (const [spec, shape] of Object.entries(MODULES)) {
    if (spec === "toolnexus-wasm/element") continue; // a DOM class: checked in Chromium
    out.push(...shapeProblems(spec, { ...(await import(spec)) }, shape, { exact: true }));
  }
  const main: typeof Main = await import("toolnexus-wasm");
  const { demoModel }: typeof Demo = await import("toolnexus-wasm/demo-model");
  const { ApprovalDialog }: typeof Dialog = await import("toolnexus-wasm/approval-dialog");
  const { browserJournal }: typeof Journal = await import("toolnexus-wasm/browser-journal");
  // The tools build: everything, agents included.
  const tnx = await main.load({ wasm: main.wasmURL("tools") });
  out.push(...shapeProblems("Toolnexus", tnx, OBJECTS.Toolnexus, { exact: true }));
  const refund = main.defineTool({ name: "refund", needsApproval: true, run: ({ order }) => `refunded order ${order}` });
  const toolkit = await tnx.createToolkit({ tools: [refund], approvalRules: [{ tool: "refund", when: [{ path: "order", op: "==", value: 7 }], decision: "allow" }] });
  out.push(...shapeProblems("Toolkit", toolkit, OBJECTS.Toolkit, { exact: true }));
  for (const info of await toolkit.tools()) out.push(...shapeProblems("ToolInfo", info, OBJECTS.ToolInfo, { exact: true }));
  const empty = await (await tnx.createToolkit([])).tools();
  if (!Array.isArray(empty)) out.push(`Toolkit.tools() of an empty toolkit: ${JSON.stringify(empty)}, the types say an array`);
  const model = demoModel();
  out.push(...shapeProblems("DemoModel", model, OBJECTS.DemoModel, { exact: true }));
  const client = await tnx.createClient(model);
  out.push(...shapeProblems("Client", client, OBJECTS.Client, { exact: true }));
  const halted = await client.run("refund order 42", toolkit);
  out.push(...shapeProblems("RunResult", halted, OBJECTS.RunResult, { exact: true }));
  if (halted.status !== "pending" || !halted.pending) out.push(`a run without waitFor: ${halted.status}, expected a halt`);
  else {
    out.push(...shapeProblems("Request", halted.pending, OBJECTS.Request, { exact: true }));
    const done = await client.runWithAnswer(toolkit, halted.messages, halted.pending, main.answerDeclined(halted.pending.id, "no"));
    out.push(...shapeProblems("RunResult", done, OBJECTS.RunResult, { exact: true }));
  }
  // A journaled run (in memory in Node), halted and continued with an answer.
  const journal = browserJournal(`types-${Date.now()}`);
  out.push(...shapeProblems("BrowserJournal", journal, OBJECTS.BrowserJournal, { exact: true }));
  const jhalt = await client.run("refund order 42", toolkit, { journal });
  if (jhalt.status !== "pending" || !jhalt.pending) out.push(`a journaled run without waitFor: ${jhalt.status}, expected a halt`);
  else {
    const jdone = await client.continue(toolkit, journal, { answer: { id: jhalt.pending.id, ok: true } });
    out.push(...shapeProblems("RunResult", jdone, OBJECTS.RunResult, { exact: true }));
    if (!/refunded order 42/.test(jdone.text)) out.push(`a continued journaled run: ${jdone.text}`);
  }
  for (const a of [main.answerOutcome("u1", "seen"), main.answerRunAgain("u1")]) {
    if (a.id !== "u1" || a.ok !== true || typeof a.data.outcome !== "string") out.push(`outcome answers: ${JSON.stringify(a)}`);
  }
  const conv = client.conversation();
  out.push(...shapeProblems("Conversation", conv, OBJECTS.Conversation, { exact: true }));
  // A rule's allow, a person's approval that grants, and the grant's approval: the record's entries.
  const granting = await tnx.createClient({ ...model, waitFor: (r) => ({ id: r.id, ok: true, data: { grant: "args" } }) });
  await granting.run("refund order 7", toolkit, { conversation: conv.id });
  await granting.run("refund order 42", toolkit, { conversation: conv.id });
  const withGrant = await granting.run("refund order 42", toolkit, { conversation: conv.id });
  out.push(...shapeProblems("RunResult", withGrant, OBJECTS.RunResult, { exact: true }));
  const entries = await toolkit.decisions();
  // The last three are this check's: a rule's allow, the granting approval, the grant's.
  const words = entries.slice(-3).map((e) => e.decision + (e.grantedBy ? " by grant" : "")).join(", ");
  if (words !== "allowed, approved, approved by grant") out.push(`toolkit.decisions(): ${words}`);
  for (const e of entries) out.push(...shapeProblems("DecisionEntry", e, OBJECTS.DecisionEntry, { exact: true }));
  for (const g of await toolkit.grants(conv.id)) out.push(...shapeProblems("Grant", g, OBJECTS.Grant, { exact: true }));
  const verdict = await tnx.verifyDecisions(entries, { head: await toolkit.decisionsHead() });
  if (!verdict.ok) out.push(`verifyDecisions: ${JSON.stringify(verdict)}`);
  const transport = main.chatTransport({ client, toolkit });
  out.push(...shapeProblems("ChatTransport", transport, OBJECTS.ChatTransport, { exact: true }));
  out.push(...shapeProblems("ApprovalDialog", new ApprovalDialog({ document: {} as Document }), OBJECTS.ApprovalDialog));
  const billing = tnx.createAgent({ name: "billing", does: "Refunds orders", tools: [refund] });
  const support = tnx.createAgent({ name: "support", team: [billing], budget: { maxTurns: 8 } });
  out.push(...shapeProblems("Agent", support, OBJECTS.Agent, { exact: true }));
  const teamHalt = await support.run("review order 42", model);
  out.push(...shapeProblems("AgentResult", teamHalt, OBJECTS.AgentResult, { exact: true }));
  if (!teamHalt.runtime) out.push("a halted team's result has no runtime");
  else {
    out.push(...shapeProblems("Runtime", teamHalt.runtime, OBJECTS.Runtime, { exact: true }));
    await teamHalt.runtime.release();
  }
  await conv.close();
  await client.close();
  await toolkit.close();
  return out;
}
