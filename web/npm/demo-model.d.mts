// demo-model.d.mts — the types of "toolnexus-wasm/demo-model": the offline,
// scripted model of the demo. It speaks the OpenAI wire format through its
// own fetch, so no key and no network: "refund order 42" (asks for
// approval), "what is 2+3", "divide 1 by 0", "what time is it", "write a
// note", and "review order 42" to a team.

import type { FetchLike } from "./toolnexus.mjs";

/** Client options for the demo model: spread them into createClient or agent.run. */
export interface DemoModel {
  baseURL: string;
  model: string;
  style: "openai";
  fetch: FetchLike;
}

/** A fresh demo model; team: the greeting offers "review order 42" (a team takes it). */
export function demoModel(options?: { team?: boolean }): DemoModel;

/** The greeting for a request offering tools (a Map of name → schema; null: any tool). */
export function help(tools: Map<string, unknown> | null, options?: { team?: boolean }): string;
