// approval-dialog.d.mts — the types of "toolnexus-wasm/approval-dialog": the
// in-page approval dialog on its own (approvalDialog is also in the main
// entry). Importing it touches no DOM and loads no wasm.

import type { Answer, LeftForLater, Request } from "./toolnexus.mjs";

export interface ApprovalDialogOptions {
  /** The document the dialog opens in (default: the page's). */
  document?: Document;
  /** Where the dialog element goes (default: the body). */
  parent?: Element;
  /** How the dialog names where the agent's own tools run, e.g. "the agent at agent.example.workers.dev". */
  agent?: string;
  /**
   * Offers "Allow for this conversation" ("conversation"; a durable run's
   * page: "run") beside Approve, with these exact arguments or any arguments:
   * the answer then carries data.grant ("args" or "any"). Never for a tool
   * that always asks.
   */
  allowFor?: "conversation" | "run";
}

/**
 * A waitFor that shows one native <dialog> per request (queued, one at a
 * time): Approve, Edit (the arguments, checked against the tool's schema)
 * or Decline with a reason. An aborted signal closes it as declined ("aborted").
 * A request of kind "outcome_unknown" asks whether a call that was running
 * when its run stopped happened: It happened (with an optional result), Run
 * it again, It did not happen (with a reason); "Decide later", Escape or an
 * aborted signal resolve to {@link LeftForLater}, and nothing is recorded.
 */
export function approvalDialog(options?: ApprovalDialogOptions): (request: Request, options?: { signal?: AbortSignal }) => Promise<Answer | LeftForLater>;

/** The dialog behind approvalDialog(), for a page that keeps one itself. */
export class ApprovalDialog {
  constructor(options?: ApprovalDialogOptions);
  /** Shows the request (after those before it) and resolves to the person's Answer (or LeftForLater). */
  ask(request: Request, options?: { signal?: AbortSignal }): Promise<Answer | LeftForLater>;
}

/** Gives root a static stylesheet once (a constructable stylesheet, else a <style id=name>). */
/** A duration as a person reads it: "23 h 59 min", "4 min 05 s", "42 s". */
export function timeLeft(ms: number): string;

export function adoptStyles(root: Document | ShadowRoot, name: string, css: string): void;
