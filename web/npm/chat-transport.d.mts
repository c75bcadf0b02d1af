// chat-transport.d.mts — the types of "toolnexus-wasm/chat-transport"
// (chatTransport, also exported by the main entry). The transport is typed
// by its shape, not by importing the `ai` package's types, so a program that
// does not use the AI SDK compiles without it; the shape is one the AI SDK's
// ChatTransport accepts (useChat({transport}) and new Chat({transport})
// compile with it under tsc --strict: tests/npm-package.test.mjs).

import type { Agent, AgentRunOptions, Client, JSONValue, Request, Toolkit, Usage } from "./toolnexus.mjs";

/** chatTransport over a client and a toolkit: the agent loop in the page. */
export interface ChatTransportOptions {
  /** A client made without waitFor, so approvals go to the UI (with one, they are answered inline). */
  client: Client;
  toolkit: Toolkit;
  /** The client's wire style, for the transcript of a new turn's history. */
  style?: "openai" | "anthropic";
}

/** chatTransport over an agent team (createAgent; the tools build). */
export interface TeamTransportOptions {
  agent: Agent;
  /** The model, as for agent.run. */
  model?: AgentRunOptions;
}

/** A UI message as the AI SDK's chat keeps it (what the transport reads of it). */
export interface UIMessageLike {
  id: string;
  role: "system" | "user" | "assistant";
  parts: Array<{ type: string }>;
}

/** What a tool part's toolMetadata says: where the tool comes from, whether it asks, which agent called. */
export type ToolMetadata = { source?: string; needsApproval?: boolean; path?: string[] };

/** A result's toolMetadata when an approval edited the arguments. */
export type EditedToolMetadata = { edited: true; args: JSONValue; originalArgs: JSONValue };

/** What messageMetadata.toolnexus says about a finished run. */
export type RunMetadata = { status: string; turns: number; limit?: string; usage?: Usage; model?: string; totalTokens?: number };

/** The UI message stream chunks the transport writes (the Worker's POST /v1/ui writes the same). */
export type ToolnexusUIChunk =
  | { type: "start" }
  | { type: "start-step" }
  | { type: "finish-step" }
  | { type: "text-start"; id: string }
  | { type: "text-delta"; id: string; delta: string }
  | { type: "text-end"; id: string }
  | { type: "tool-input-available"; toolCallId: string; toolName: string; input: JSONValue; toolMetadata: ToolMetadata }
  | { type: "tool-output-available"; toolCallId: string; output: string; toolMetadata?: EditedToolMetadata }
  | { type: "tool-output-error"; toolCallId: string; errorText: string; toolMetadata?: EditedToolMetadata }
  | { type: "tool-output-denied"; toolCallId: string }
  | {
      type: "tool-approval-request";
      approvalId: string;
      toolCallId: string;
      /** The request: kind, prompt, tool, args, source, server, schema, path. */
      approvalDescriptor: { kind: string; prompt: string; tool?: string; args?: JSONValue; source?: string; server?: string; schema?: JSONValue; path?: string[] };
    }
  | { type: "data-toolnexus-pending"; data: { request: Request } }
  | { type: "finish"; finishReason: "stop" | "length" | "tool-calls" | "other"; messageMetadata: { toolnexus: RunMetadata } }
  | { type: "error"; errorText: string };

/** The AI SDK's ChatTransport (ai 6.x), as this runtime implements it. */
export interface ToolnexusChatTransport {
  /**
   * A user message starts a run; an assistant message answering one approval
   * resumes the halted run (once). body.approvalArgs: edited arguments for an approval.
   */
  sendMessages(options: {
    messages: UIMessageLike[];
    abortSignal?: AbortSignal | undefined;
    body?: object;
    trigger?: "submit-message" | "regenerate-message";
    chatId?: string;
    messageId?: string | undefined;
  }): Promise<ReadableStream<ToolnexusUIChunk>>;
  /** A run lives as long as its stream: there is nothing to reconnect to (null). */
  reconnectToStream(options: { chatId: string }): Promise<ReadableStream<ToolnexusUIChunk> | null>;
}

/** The AI SDK's ChatTransport over a client and toolkit, or over an agent team, in the page. */
export function chatTransport(options: ChatTransportOptions | TeamTransportOptions): ToolnexusChatTransport;

/** The wire transcript (OpenAI or Anthropic) of UI messages, as the history of a new turn. */
export function transcript(messages: UIMessageLike[], style?: "openai" | "anthropic"): Array<{ [key: string]: unknown }>;
