// toolnexus-chat.d.mts — the types of "toolnexus-wasm/element": importing it
// defines <toolnexus-chat> (once) and exports its class.

import type { DecisionEntry, FunctionTool, HttpTool, RelayTool, Request, RunResult } from "./toolnexus.mjs";

/** The element's HTML attributes (each mirrored by a property of the class). */
export interface ToolnexusChatAttributes {
  /** Use the offline demo model and tools (no key, no network). */
  demo?: boolean | "";
  /** A toolnexus Worker: the loop runs there and no key reaches the page. */
  endpoint?: string;
  /** An OpenAI-compatible or Anthropic endpoint for a loop in the page. */
  "base-url"?: string;
  model?: string;
  /** The wire style when it says "openai" or "anthropic" (otherwise it is inline CSS). */
  style?: string;
  "system-prompt"?: string;
  "max-turns"?: number | string;
  /** Where the wasm is (default: the build beside the element's module). */
  wasm?: string;
  /** Stream from base-url (the demo model and durable Worker runs always stream). */
  stream?: boolean | "";
  /** Keep the conversation in this browser under this key. */
  persist?: string;
  /** Seconds an approval waits inline before the run is saved and halted (with persist). */
  "wait-limit"?: number | string;
}

/** The detail of toolnexus:tool-call: a finished call as the transcript shows it. */
export interface ToolCallEventDetail {
  id: string;
  name: string;
  args: unknown;
  output: string;
  isError: boolean;
  edited: boolean;
  declined: boolean;
}

/** The element's events: bubbling, composed CustomEvents. */
export interface ToolnexusChatEventMap extends HTMLElementEventMap {
  "toolnexus:tool-call": CustomEvent<ToolCallEventDetail>;
  /** A request waits for the person (the dialog opens). */
  "toolnexus:pending": CustomEvent<{ request: Request }>;
  "toolnexus:done": CustomEvent<{ result: RunResult }>;
  "toolnexus:error": CustomEvent<{ message: string; result?: RunResult }>;
  /** An "allow for this conversation" (a durable run's "for this run") was taken back. */
  "toolnexus:revoked": CustomEvent<{ grant: string; decision: DecisionEntry | null }>;
}

/** <toolnexus-chat>: an agent chat with the approval dialog, configured by attributes. */
export class ToolnexusChatElement extends HTMLElement {
  static readonly observedAttributes: string[];
  /** Registers the element under tag (once; a second call is a no-op). */
  static define(tag?: string, registry?: CustomElementRegistry): typeof ToolnexusChatElement;

  model: string;
  baseUrl: string;
  /** The wire style ("openai" unless the style attribute says "anthropic"). */
  apiStyle: "openai" | "anthropic";
  systemPrompt: string;
  get maxTurns(): number | undefined;
  set maxTurns(value: number);
  endpoint: string;
  demo: boolean;
  wasm: string;
  stream: boolean;
  persist: string;
  waitLimit: number;
  /** Function and HTTP tools for a loop in the page (defineTool, httpTool, relayTool specs). */
  tools: Array<FunctionTool<any> | HttpTool | RelayTool>;
  /** Values for ${NAME} in HTTP tool headers. */
  variables: { [name: string]: string };
  /** A provider key for local experiments only: write-only, never an attribute. */
  set apiKey(value: string | undefined);
  /** True while a run (or a saved request's dialog) is going on. */
  readonly busy: boolean;
  /** Sends a message as if typed; the run's result (null when not sent: empty, or busy). */
  send(text: string): Promise<RunResult | null>;
  /** Starts a new conversation (and clears what persist saved). */
  reset(): void;

  addEventListener<K extends keyof ToolnexusChatEventMap>(type: K, listener: (this: ToolnexusChatElement, ev: ToolnexusChatEventMap[K]) => any, options?: boolean | AddEventListenerOptions): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void;
  removeEventListener<K extends keyof ToolnexusChatEventMap>(type: K, listener: (this: ToolnexusChatElement, ev: ToolnexusChatEventMap[K]) => any, options?: boolean | EventListenerOptions): void;
  removeEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | EventListenerOptions): void;
}

declare global {
  interface HTMLElementTagNameMap {
    "toolnexus-chat": ToolnexusChatElement;
  }
}
