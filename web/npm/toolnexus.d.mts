// toolnexus.d.mts — the types of "toolnexus-wasm" (toolnexus.mjs): load()
// and the API it resolves to, the tool helpers, Answers, run results and
// stream events. tests/npm-package.test.mjs compiles a strict consumer of
// every export and checks at run time that what these types promise is there.

import { approvalDialog } from "./approval-dialog.mjs";

export { approvalDialog };
export type { ApprovalDialogOptions } from "./approval-dialog.mjs";
export { chatTransport } from "./chat-transport.mjs";
export type {
  ChatTransportOptions, TeamTransportOptions, ToolnexusChatTransport, ToolnexusUIChunk, UIMessageLike,
} from "./chat-transport.mjs";
export type { BrowserJournal, BrowserJournalOptions } from "./browser-journal.mjs";

/** Any JSON value. */
export type JSONValue = null | string | number | boolean | JSONValue[] | { [key: string]: JSONValue };

/** A JSON Schema (a tool's input schema): the keywords a tool usually needs, open to the rest. */
export interface JSONSchema {
  type?: string | string[];
  description?: string;
  properties?: { [name: string]: JSONSchema };
  required?: string[];
  items?: JSONSchema;
  enum?: JSONValue[];
  [keyword: string]: unknown;
}

/** What a call's arguments look like before a tool says more: the model's JSON object. */
export type ToolArgs = { [name: string]: any };

/**
 * What a suspended tool call asks for: an approval of the exact arguments
 * (kind "approval"), a relay of calls the host runs ("tool_call"), answers
 * to questions ("question"), form input ("input") or a login at url
 * ("authorization"); in a journaled run, whether an approved call that was
 * running when the run stopped happened ("outcome_unknown": answer with
 * answerOutcome, answerRunAgain or answerDeclined). A waitFor answers it
 * with an {@link Answer} of the same id.
 */
export interface Request {
  id: string;
  kind: "approval" | "tool_call" | "question" | "input" | "authorization" | "outcome_unknown" | (string & {});
  prompt: string;
  url?: string;
  data?: RequestData;
  /** RFC 3339, when the request expires. */
  expiresAt?: string;
}

/** A Request's data; which keys are set depends on its kind. */
export interface RequestData {
  /** approval: the tool that waits, where it comes from ("js", "http", "mcp", …), its call id and the exact arguments. */
  tool?: string;
  source?: string;
  callId?: string;
  args?: ToolArgs;
  /** approval: the tool's input schema, to check edited arguments against. */
  schema?: JSONSchema;
  /** approval of an MCP tool: the server's configured name. */
  server?: string;
  /** approval in an agent team: the asking agent's path, e.g. ["support", "billing"]. */
  path?: string[];
  /** tool_call: the relay calls of one turn, in call order. */
  calls?: RelayCall[];
  /** outcome_unknown: the id of the approval the call ran on, and that approval. */
  approval?: string;
  answer?: Answer;
  /** outcome_unknown: how often the call was begun without finishing. */
  attempts?: number;
  /** outcome_unknown: the answers it takes ("happened", "rerun", "failed"). */
  choices?: string[];
  [key: string]: unknown;
}

/** One call a relay request asks the host to run. */
export interface RelayCall {
  id: string;
  name: string;
  input: ToolArgs;
  /** The raw JSON the model sent. */
  arguments: string;
}

/**
 * The answer to a Request: ok with optional data ({output} for a tool that
 * suspended, {args} for an approval with edited arguments, {results} for a
 * relay), or not ok with the reason the model is told.
 */
export interface Answer {
  id: string;
  ok: boolean;
  data?: { [key: string]: unknown };
  reason?: string;
}

/**
 * Not an Answer: the person left the request for later ("Decide later", or
 * Escape on a question about a lost outcome). A journaled run halts on the
 * request (status "pending") with nothing recorded; continue asks again.
 */
export interface LeftForLater {
  id: string;
  later: true;
}

/**
 * Asks a person (or a rule) and answers; a throw or rejection is a decline
 * with its message. In a journaled run it may resolve {@link LeftForLater}.
 */
export type WaitFor = (request: Request, options: { signal?: AbortSignal }) => Answer | LeftForLater | Promise<Answer | LeftForLater>;

/** How the core calls a provider (and HTTP tools, MCP servers): the page's fetch by default. */
export type FetchLike = (url: string, init?: RequestInit) => Promise<Response>;

/** What a tool's run function sees besides its arguments. */
export interface ToolContext {
  callId: string;
  toolName: string;
  /** On the run after a suspension, the Answer that resumed it; otherwise null. */
  answer: Answer | null;
  /** "<run id>:<call id>": the same on every attempt of this call, also one made again after a cut. */
  idempotencyKey: string;
}

/** A tool's result as an object: output (the text the model reads), isError, metadata. */
export interface ToolResult {
  output: string;
  isError?: boolean;
  metadata?: { [key: string]: unknown };
}

/** The options of {@link defineTool}. */
export interface DefineToolOptions<A extends ToolArgs = ToolArgs> {
  name: string;
  description?: string;
  /** Defaults to an object schema with no properties. */
  inputSchema?: JSONSchema;
  /**
   * The tool itself; may be async. A string is the output, a {@link ToolResult}
   * is used as is, anything else is JSON-encoded; a throw is an error result
   * the model reads, and the run goes on.
   */
  run: (args: A, ctx: ToolContext) => unknown;
  /**
   * The first call waits for an approval (waitFor, the dialog, or a halt);
   * "always": every call asks, whatever an approval rule or an "allow for
   * this conversation" says.
   */
  needsApproval?: boolean | "always";
  /**
   * Running a call again with the same ctx.idempotencyKey does no more than
   * once: a journaled run cut off while an approved call of this tool ran
   * runs it again, instead of asking whether it happened.
   */
  idempotent?: boolean;
  source?: string;
}

/** A tool whose run is a JavaScript function (defineTool). */
export interface FunctionTool<A extends ToolArgs = ToolArgs> {
  name: string;
  description: string;
  inputSchema: JSONSchema;
  needsApproval: boolean | "always";
  run: (args: A, ctx: ToolContext) => unknown;
  idempotent?: true;
  source?: string;
}

/** A tool the host executes: a call halts the run with a "tool_call" request (relayTool). */
export interface RelayTool {
  name: string;
  description: string;
  inputSchema: JSONSchema;
  relay: true;
}

/**
 * An HTTP request the core makes as a tool: {name} in url is the URL-escaped
 * argument of that name; arguments named in query go to the query string;
 * GET/HEAD/DELETE send the rest as query parameters, other methods as a JSON
 * body merged over body. Header values may use ${NAME} from the toolkit's variables.
 */
export interface HttpSpec {
  method?: string;
  url: string;
  headers?: { [name: string]: string };
  query?: string[];
  body?: { [key: string]: JSONValue };
  timeoutMs?: number;
}

/** The options of {@link httpTool}. */
export interface HttpToolOptions {
  name: string;
  description?: string;
  inputSchema?: JSONSchema;
  http: HttpSpec;
  needsApproval?: boolean | "always";
  /** The endpoint honours Idempotency-Key: every attempt of a call sends "<run id>:<call id>", and a cut-off call is retried. */
  idempotent?: boolean;
}

/** A tool the core executes as an HTTP request (httpTool). */
export interface HttpTool {
  name: string;
  description: string;
  inputSchema: JSONSchema;
  needsApproval: boolean | "always";
  http: HttpSpec;
  idempotent?: true;
}

/** Any tool createToolkit and createAgent take. */
export type Tool = FunctionTool<any> | RelayTool | HttpTool;

/** An MCP server of a toolkit's mcpServers (Claude-desktop shape; docs/mcp.md). */
export interface McpServerConfig {
  url?: string;
  type?: string;
  headers?: { [name: string]: string };
  /** Which tools ask for approval: "always", "never", or by the server's annotations (the default). */
  approval?: string;
  disabled?: boolean;
  [key: string]: unknown;
}

/** The options of createToolkit. */
export interface ToolkitOptions {
  tools?: Tool[];
  /** Values for ${NAME} in HTTP tool and MCP server headers (only these). */
  variables?: { [name: string]: string };
  /** Carries HTTP tool and MCP requests (default: globalThis.fetch). */
  fetch?: FetchLike;
  /** MCP servers by name, or a whole Claude-desktop config (toolnexus-tools.wasm). */
  mcpServers?: { [name: string]: McpServerConfig } | { mcpServers: { [name: string]: McpServerConfig } };
  /** Answers MCP servers' elicitations (kind "input" or "authorization"). */
  waitFor?: WaitFor;
  /** The built-in tools (toolnexus-tools.wasm): true, false, or on/off by name. */
  builtins?: boolean | { [name: string]: boolean };
  /** Skills: SKILL.md files by path, or the URL of a JSON index {"files": {path: text}}. */
  skills?: { [path: string]: string } | string;
  /** The virtual file system's first content, by path. */
  files?: { [path: string]: string };
  /** Called when a built-in tool writes (text) or deletes (null) a file. */
  onFilesChange?: (path: string, text: string | null) => void;
  /** Remote A2A agents whose skills become tools, by name (toolnexus-tools.wasm; docs/a2a.md). */
  a2aAgents?: { [name: string]: A2AAgentConfig } | { agents: { [name: string]: A2AAgentConfig } };
  /**
   * Approval rules, read before each call (first match wins): allow, deny
   * (the model reads reason) or ask; no match leaves it to the tool's
   * needsApproval. An array, or its JSON text; a list with a problem is
   * refused naming every problem.
   */
  approvalRules?: ApprovalRule[] | string;
  /** Receives each decision of the toolkit's runs as its record chains it. */
  onDecision?: (entry: DecisionEntry) => void;
}

/** One approval rule: every field it sets must match a call. */
export interface ApprovalRule {
  /** Its name in the record ("rule N" when unnamed). */
  name?: string;
  /** A tool's name, a prefix ending in "*", or "*". */
  tool?: string;
  source?: "js" | "http" | "mcp" | "a2a" | "builtin" | "native" | "relay" | "skill" | "custom";
  /** The MCP server of an MCP tool. */
  server?: string;
  /** The asking agent in a team: its name, or the end of its path ("support/billing"). */
  agent?: string;
  /** Conditions on the call's arguments; all must hold. */
  when?: ApprovalCondition[];
  decision: "allow" | "deny" | "ask";
  /** What the model is told of a deny. */
  reason?: string;
}

/**
 * A condition on the argument at path ("amount", "customer.tier",
 * "items.0.sku"). A path the arguments lack does not match.
 */
export type ApprovalCondition =
  | { path: string; op: "==" | "!="; value: string | number | boolean | null }
  | { path: string; op: "<" | "<=" | ">" | ">="; value: number }
  | { path: string; op: "startsWith"; value: string }
  | { path: string; op: "oneOf"; value: Array<string | number | boolean | null> };

/**
 * One decision of the record: a rule's ("allowed", "denied"), a grant's or a
 * person's ("approved", "edited", "declined"; "happened", "rerun", "failed"
 * for a call whose outcome was lost), or a grant taken back ("revoked").
 * Each entry carries the hash of the one before (prev) and its own (hash).
 */
export interface DecisionEntry {
  seq: number;
  /** When, RFC 3339 in UTC with milliseconds. */
  at: string;
  run?: string;
  conversation?: string;
  call?: string;
  tool?: string;
  /** The asking agent's path, in a team. */
  path?: string[];
  /** The request a person answered (for "revoked": the grant's id). */
  request?: string;
  /** The arguments the model asked for, and the ones that ran (absent when nothing ran). */
  asked?: JSONValue;
  ran?: JSONValue;
  decision: "allowed" | "denied" | "approved" | "edited" | "declined" | "happened" | "rerun" | "failed" | "revoked";
  reason?: string;
  /** The rule that decided or asked. */
  rule?: string;
  /** The scope this approval granted for the conversation. */
  grant?: "args" | "any";
  /** The grant (its request id) that approved this call. */
  grantedBy?: string;
  /** Who decided: "in page", an approver's name. */
  approver?: string;
  /** Where the decision came from: "rule", "grant", "tab", "link", "api", "ai-sdk", "waitFor", "resume". */
  from: string;
  prev: string;
  hash: string;
}

/** An "allow for this conversation" grant. */
export interface Grant {
  /** The id of the request whose approval gave it. */
  id: string;
  tool: string;
  /** "args": the same arguments only; "any": any arguments. */
  scope: "args" | "any";
  args?: JSONValue;
  approver: string;
}

/** What verifyDecisions found. */
export type DecisionsVerdict =
  | { ok: true; count: number; head?: string }
  | { ok: false; count: number; head?: string; index: number; seq: number; error: string };

/** One remote A2A agent of createToolkit's a2aAgents. */
export interface A2AAgentConfig {
  /** The agent card's URL. */
  card: string;
  /** The JSON-RPC endpoint, when not the card's own. */
  url?: string;
  headers?: { [name: string]: string };
  timeout?: number;
  pollEvery?: number;
  enabled?: boolean;
  disabled?: boolean;
  [key: string]: unknown;
}

/** An A2A agent's state in a toolkit. */
export interface A2AStatus {
  status: "connected" | "disabled" | "failed";
  reason?: string;
  tools?: string[] | number;
  card?: unknown;
  [key: string]: unknown;
}

/** A tool as a toolkit lists it. */
export interface ToolInfo {
  name: string;
  description: string;
  inputSchema: JSONSchema;
  source: string;
  needsApproval?: boolean;
  /** Every call asks, whatever a rule or a grant says. */
  alwaysAsk?: boolean;
}

/** An MCP server's state in a toolkit. */
export interface McpStatus {
  status: "connected" | "disabled" | "failed";
  error?: string;
  tools?: number;
  [key: string]: unknown;
}

/** A toolkit: the tools a client's runs may call. */
export interface Toolkit {
  /** The low-level handle a client passes back to the wasm. */
  readonly raw: object;
  tools(): Promise<ToolInfo[]>;
  /** Runs one tool directly, outside a model loop (so without asking for approval). */
  execute(name: string, args?: ToolArgs): Promise<ToolResult>;
  mcpStatus(): Promise<{ [server: string]: McpStatus }>;
  /** Per A2A agent of a2aAgents: its state ({} without any). */
  a2aStatus(): Promise<{ [agent: string]: A2AStatus }>;
  /** The built-in tools' files as {path: text} (toolnexus-tools.wasm). */
  files(): Promise<{ [path: string]: string }>;
  /** The system-prompt section that lists the skills ("" without skills). */
  skillsPrompt(): Promise<string>;
  skills(): Promise<{ skills: Array<{ name: string; description: string; path: string }>; problems: Array<{ path: string; error: string }> }>;
  /** Every decision of this toolkit's runs, in order, chained. */
  decisions(): Promise<DecisionEntry[]>;
  /** The last entry's hash ("" when empty): keep it apart to verify the record later. */
  decisionsHead(): Promise<string>;
  /** The record as JSON Lines. */
  exportDecisions(): Promise<string>;
  /** A conversation's "allow for this conversation" grants. */
  grants(conversation: string): Promise<Grant[]>;
  /** Takes a grant back (later calls ask again); the revocation's entry, or null. */
  revoke(conversation: string, grant: string, options?: { approver?: string }): Promise<DecisionEntry | null>;
  /** Ends MCP sessions; the toolkit cannot be used afterwards. */
  close(): Promise<void>;
}

/** Token counts. */
export interface Usage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

/** A message of the transcript, in the client's wire format (OpenAI or Anthropic). */
export interface Message {
  role: string;
  [key: string]: unknown;
}

/** The record of one finished tool call of a run. */
export interface ToolCallRecord {
  id: string;
  name: string;
  /** The arguments it ran with (the model's, or an approval's edit), as JSON. */
  args: JSONValue;
  /** What the model asked for, when an approval edited the arguments. */
  originalArgs?: JSONValue;
  output: string;
  isError: boolean;
  edited?: boolean;
  /** A person declined the call: it did not run, and output is the reason the model was told. */
  declined?: boolean;
}

/** What a run produced. */
export interface RunResult {
  text: string;
  /** The transcript (without the system prompt); history for the next run. */
  messages: Message[];
  toolCalls: ToolCallRecord[];
  toolCallCount: number;
  turns: number;
  usage: Usage;
  /** The model the run asked for; providerModel, the one the provider said answered. */
  model: string;
  providerModel?: string;
  /** "pending": halted on pending (no waitFor); "incomplete": stopped early, limit says why. */
  status: "done" | "pending" | "incomplete";
  limit?: string;
  pending?: Request;
  /** The run's approval decisions, as made (the toolkit's record chains them). */
  decisions?: DecisionEntry[];
}

/** A conversation's result: its transcript stays in the wasm (conv.messages()). */
export type ConversationResult = Omit<RunResult, "messages">;

/** One event of a streamed run; the iterator ends with "done". */
export type StreamEvent =
  | { type: "text"; delta: string }
  | { type: "tool_call"; id: string; name: string; args?: string }
  | {
      type: "tool_result";
      id: string;
      name: string;
      /** The arguments that ran (JSON text) when an approval edited them; originalArgs what was asked. */
      args?: string;
      originalArgs?: string;
      output?: string;
      isError?: boolean;
      edited?: boolean;
      declined?: boolean;
    }
  | { type: "pending"; request: Request }
  | { type: "usage"; usage: Usage }
  | { type: "done"; result: RunResult };

/** A stream of a conversation: its "done" result has no messages. */
export type ConversationStreamEvent = Exclude<StreamEvent, { type: "done" }> | { type: "done"; result: ConversationResult };

/**
 * Where a journaled run's steps are recorded (browserJournal() from
 * "toolnexus-wasm/browser-journal", or your own): the core records each step
 * before it takes effect, and continue goes on from the last one.
 */
export interface Journal {
  /** Every entry recorded, as JSON text, in the order recorded. */
  load(): Promise<string[]>;
  /**
   * Stores one entry durably; rejects for a key recorded already with an
   * error named "ConstraintError" (or with duplicate: true), atomically.
   */
  record(key: string, entryJSON: string): Promise<void>;
}

/** Options of one run. */
export interface RunOptions {
  /** Earlier messages (a previous result's messages). */
  history?: Message[];
  /** Aborts the in-flight fetch and ends the run. */
  signal?: AbortSignal;
  /**
   * Journal the run: it can then be continued after a crash (client.continue).
   * A journal that holds a run already is continued instead of starting another.
   */
  journal?: Journal;
  /** The conversation the run belongs to: its "allow for this conversation" grants live there. */
  conversation?: string;
}

/** Options of client.continue. */
export interface ContinueOptions {
  signal?: AbortSignal;
  /** The answer to the request the run halted on, recorded before the run goes on. */
  answer?: Answer;
  /** The conversation the run belongs to (see RunOptions). */
  conversation?: string;
}

/** A model reply made in the page instead of fetched (createClient's generate). */
export interface GenerateRequest {
  model: string;
  messages: Array<{ [key: string]: unknown }>;
  tools?: Array<{ [key: string]: unknown }>;
}

export interface GenerateReply {
  text?: string;
  toolCalls?: Array<{ id?: string; name: string; arguments: string | ToolArgs }>;
  usage?: Partial<Usage>;
}

/** The options of createClient. */
export interface ClientOptions {
  baseURL?: string;
  style?: "openai" | "anthropic";
  model?: string;
  apiKey?: string;
  headers?: { [name: string]: string };
  systemPrompt?: string;
  maxTurns?: number;
  maxTokens?: number;
  toolTimeoutMs?: number;
  timeoutMs?: number;
  retries?: number;
  retryBaseMs?: number;
  /** Extra body fields of every provider request (temperature, …). */
  requestParams?: { [key: string]: JSONValue };
  fetch?: FetchLike;
  /** Answers suspended calls; without it a suspension halts the run with status "pending". */
  waitFor?: WaitFor;
  /** Runs the model in the page instead of calling baseURL. */
  generate?: (request: GenerateRequest) => GenerateReply | Promise<GenerateReply>;
}

/** One provider call without the loop (client.translate): OpenAI-shaped in and out. */
export interface TranslateRequest {
  messages: Array<{ [key: string]: unknown }>;
  tools?: Array<{ [key: string]: unknown }>;
  model?: string;
}

export interface TranslateResult {
  text: string;
  toolCalls: Array<{ id: string; name: string; input: ToolArgs; arguments: string }>;
  finishReason: string;
  usage: Usage;
  model: string;
}

/** A conversation: its transcript stays in the wasm between runs. */
export interface Conversation {
  /** Its id: its "allow for this conversation" grants live under it. */
  readonly id: string;
  run(prompt: string, toolkit: Toolkit, options?: { signal?: AbortSignal }): Promise<ConversationResult>;
  stream(prompt: string, toolkit: Toolkit, options?: { signal?: AbortSignal }): AsyncIterableIterator<ConversationStreamEvent>;
  /** Resumes the conversation's halted run with an Answer. */
  runWithAnswer(toolkit: Toolkit, answer: Answer, options?: { signal?: AbortSignal }): Promise<ConversationResult>;
  streamWithAnswer(toolkit: Toolkit, answer: Answer, options?: { signal?: AbortSignal }): AsyncIterableIterator<ConversationStreamEvent>;
  /** The transcript so far. */
  messages(): Promise<Message[]>;
  close(): Promise<void>;
}

/** A client: a model and how to reach it. */
export interface Client {
  run(prompt: string, toolkit: Toolkit, options?: RunOptions): Promise<RunResult>;
  /** The run as an async iterator of events, ending with {type: "done", result}. */
  stream(prompt: string, toolkit: Toolkit, options?: RunOptions): AsyncIterableIterator<StreamEvent>;
  /**
   * Goes on with the run a journal holds from its last recorded step: a
   * recorded reply or outcome is used as recorded, a model call in flight is
   * made again, and an approved call begun without a recorded outcome runs
   * again only if its tool is idempotent — otherwise the run asks whether it
   * happened (a request of kind "outcome_unknown"). An ended run returns its end.
   */
  continue(toolkit: Toolkit, journal: Journal, options?: ContinueOptions): Promise<RunResult>;
  /** continue as events, like stream: only the steps it takes. */
  streamContinue(toolkit: Toolkit, journal: Journal, options?: ContinueOptions): AsyncIterableIterator<StreamEvent>;
  /** Resumes a halted run (status "pending") with the person's Answer. */
  runWithAnswer(toolkit: Toolkit, messages: Message[], pending: Request, answer: Answer, options?: { signal?: AbortSignal; conversation?: string }): Promise<RunResult>;
  streamWithAnswer(toolkit: Toolkit, messages: Message[], pending: Request, answer: Answer, options?: { signal?: AbortSignal; conversation?: string }): AsyncIterableIterator<StreamEvent>;
  translate(request: TranslateRequest, options?: { signal?: AbortSignal }): Promise<TranslateResult>;
  conversation(options?: { history?: Message[]; id?: string }): Conversation;
  /** The client's counters in the Prometheus text format. */
  metrics(): Promise<string>;
  close(): Promise<void>;
}

/** Limits of an agent's subtree. */
export interface Budget {
  maxTurns?: number;
  maxTokens?: number;
  maxToolCalls?: number;
  maxWallMs?: number;
  maxChildren?: number;
  maxConcurrent?: number;
  maxDepth?: number;
}

/** The model of an agent run: a provider, or generate. */
export interface ModelOptions {
  baseURL?: string;
  style?: "openai" | "anthropic";
  model?: string;
  apiKey?: string;
  headers?: { [name: string]: string };
  fetch?: FetchLike;
  generate?: (request: GenerateRequest) => GenerateReply | Promise<GenerateReply>;
}

/** A transition of an agent's handle (runtime onEvent). */
export interface AgentEvent {
  type: string;
  handle: string;
  path: string[];
  state: string;
  result?: AgentResult;
  request?: Request;
  [key: string]: unknown;
}

/** The options of agent.run and createRuntime (createRuntime also needs agent). */
export interface AgentRunOptions extends ModelOptions {
  waitFor?: WaitFor;
  signal?: AbortSignal;
  onEvent?: (event: AgentEvent) => void;
  /** Core's stream events of every turn, labelled with the agent's handle and path. */
  onStream?: (event: StreamEvent & { handle?: string; path?: string[] }) => void;
  onMetric?: (event: { [key: string]: unknown }) => void;
}

export interface RuntimeOptions extends AgentRunOptions {
  agent: Agent;
}

/** An agent's result; a "pending" one carries the runtime to resume. */
export interface AgentResult {
  status: "done" | "pending" | "incomplete" | (string & {});
  text: string;
  isError: boolean;
  limit?: string;
  pending?: Request;
  turns: number;
  totalTokens: number;
  /** Set on a "pending" result (not part of its JSON): resume(answer), snapshot(), release(). */
  readonly runtime?: Runtime;
}

/** The options of createAgent. */
export interface AgentOptions {
  name: string;
  /** What the agent does, as its team lead reads it. */
  does?: string;
  instructions?: string;
  tools?: Tool[];
  team?: Agent[];
  budget?: Budget;
  /** A model name for this agent, instead of the run's. */
  model?: string;
  /** Answers this agent's subtree first. */
  waitFor?: WaitFor;
}

/** An agent (createAgent; the tools build). */
export interface Agent {
  readonly name: string;
  readonly does: string;
  readonly instructions: string;
  readonly tools: Tool[];
  readonly team: Agent[];
  readonly budget?: Budget;
  readonly model?: string;
  readonly waitFor?: WaitFor;
  /** Runs prompt on a fresh runtime. */
  run(prompt: string, options?: AgentRunOptions): Promise<AgentResult>;
}

/** A row of runtime.list(). */
export interface HandleInfo {
  id: string;
  agent: string;
  path: string[];
  state: string;
  tokens: number;
  turns: number;
  inbox: number;
  pendingKind?: string;
  [key: string]: unknown;
}

/** A runtime of agent handles (createRuntime, restoreRuntime, result.runtime). */
export interface Runtime {
  run(prompt: string, options?: { signal?: AbortSignal }): Promise<AgentResult>;
  /** A new handle under parent (null: the root) from the agent named name; its id. */
  spawn(parent: string | null | undefined, name: string, budget?: Budget): Promise<string>;
  post(handle: string, text: string, options?: { channel?: string }): Promise<{ ok: boolean; error?: string }>;
  wake(handle: string, prompt?: string): Promise<{ ok: boolean; error?: string }>;
  wait(handle: string, options?: { timeoutMs?: number }): Promise<AgentResult>;
  /** Aborts the handle's running turn (or withdraws its pending request). */
  interrupt(handle: string): Promise<void>;
  /** Closes a handle and its children (no handle: everything). */
  close(handle?: string, options?: { force?: boolean }): Promise<void>;
  list(): Promise<HandleInfo[]>;
  inspect(handle: string): Promise<{ [key: string]: unknown }>;
  /** Delivers the Answer to the deepest suspended agent; the top-level agent's result. */
  resume(answer: Answer): Promise<AgentResult>;
  /** The halted tree as JSON text, for restoreRuntime. */
  snapshot(): Promise<string>;
  release(): Promise<void>;
}

/** The API load() resolves to. */
export interface Toolnexus {
  /** The runtime's version (also the package's). */
  readonly version: string;
  /** Whether this wasm links agents (the tools build does). */
  readonly agentsLinked: boolean;
  createToolkit(options?: ToolkitOptions | Tool[]): Promise<Toolkit>;
  createClient(options?: ClientOptions): Promise<Client>;
  /**
   * Checks a decision record (entries, or their JSON Lines): every hash and
   * link, and with head that nothing was cut from its end; names the first
   * entry changed or removed.
   */
  verifyDecisions(record: DecisionEntry[] | string, options?: { head?: string }): Promise<DecisionsVerdict>;
  defineTool: typeof defineTool;
  relayTool: typeof relayTool;
  httpTool: typeof httpTool;
  answerOutput: typeof answerOutput;
  answerDeclined: typeof answerDeclined;
  answerOutcome: typeof answerOutcome;
  answerRunAgain: typeof answerRunAgain;
  relayAnswer: typeof relayAnswer;
  approvalDialog: typeof approvalDialog;
  /** An agent (the tools build; the default build throws, naming it). */
  createAgent(options: AgentOptions): Agent;
  createRuntime(options: RuntimeOptions): Promise<Runtime>;
  restoreRuntime(options: RuntimeOptions, snapshot: string | object): Promise<Runtime>;
}

/** Where load() finds the wasm: a URL or path, its bytes, or a (pending) Response. */
export type WasmSource = string | URL | ArrayBuffer | ArrayBufferView | Response | Promise<Response>;

/**
 * Starts the wasm (once per page or process) and resolves to the API. wasm
 * defaults to the default build beside the module ({@link wasmURL}); in Node
 * it is read from disk.
 */
export function load(options?: { wasm?: WasmSource }): Promise<Toolnexus>;

/** The URL of the default build ("default") or of the tools build ("tools": MCP, built-ins, skills, agents). */
export function wasmURL(kind?: "default" | "tools"): URL;

/** A tool whose run is a JavaScript function. */
export function defineTool<A extends ToolArgs = ToolArgs>(options: DefineToolOptions<A>): FunctionTool<A>;

/** A tool the host executes: the run halts with a "tool_call" request. */
export function relayTool(name: string, description?: string, inputSchema?: JSONSchema): RelayTool;
export function relayTool(spec: { name: string; description?: string; inputSchema?: JSONSchema }): RelayTool;

/** A tool the core executes as an HTTP request. */
export function httpTool(options: HttpToolOptions): HttpTool;

/** The Answer that resumes a suspended request with an output. */
export function answerOutput(id: string, output: unknown): Answer & { ok: true; data: { output: unknown } };

/** The Answer for a refusal; reason defaults to "declined". */
export function answerDeclined(id: string, reason?: string): Answer & { ok: false; reason: string };

/** The Answer to an "outcome_unknown" request: the call happened, and output is its result for the model. */
export function answerOutcome(id: string, output?: string): Answer & { ok: true; data: { outcome: "happened"; output: string } };

/** The Answer to an "outcome_unknown" request: run the call again, as it was approved. */
export function answerRunAgain(id: string): Answer & { ok: true; data: { outcome: "rerun" } };

/** The Answer for a relay request: one result per call. */
export function relayAnswer(id: string, results: Array<{ id: string; output: string; isError?: boolean }>): Answer & { ok: true };
