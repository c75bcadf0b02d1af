// browser-journal.d.mts — the types of "toolnexus-wasm/browser-journal": a
// journaled run's journal in the browser's IndexedDB (in memory where there
// is none, e.g. Node), so that a tab killed mid-run continues the run when
// the page opens again (client.continue). Importing it touches no storage.

import type { Answer, Journal, Request, StreamEvent } from "./toolnexus.mjs";

export interface BrowserJournalOptions {
  /** The IndexedDB database (default "toolnexus-journal"); one object store holds every journal of it. */
  database?: string;
  /** The IndexedDB factory (default globalThis.indexedDB; null: keep the journal in memory). */
  indexedDB?: IDBFactory | null;
  /**
   * "strict" (the default): each record is flushed to disk before it
   * resolves, so it survives a crash of the whole browser; "relaxed"
   * survives a crashed or closed tab, and is faster.
   */
  durability?: "strict" | "relaxed" | "default";
}

/** A journal: what client.run / stream / continue take as journal, and more. */
export interface BrowserJournal extends Journal {
  readonly name: string;
  /** "indexeddb" or "memory" once opened (await ready()); "unknown" before. */
  readonly kind: "indexeddb" | "memory" | "unknown";
  ready(): Promise<void>;
  /** Whether the journal holds a run that has not ended: a run to continue. */
  unfinished(): Promise<boolean>;
  /** Forgets every entry of this journal (once the run's result is kept elsewhere). */
  clear(): Promise<void>;
}

/** The journal named name (one run at a time per name). */
export function browserJournal(name: string, options?: BrowserJournalOptions): BrowserJournal;

/** A step a journal recorded, as the stream event that reported it (and a person's answer to a request). */
export type RecordedEvent =
  | Extract<StreamEvent, { type: "text" | "tool_call" | "tool_result" }>
  | { type: "answer"; request: Request; answer: Answer };

/** The steps a journal's entries (load()'s texts) record, to show what happened before a run was cut off. */
export function recordedEvents(entries: string[]): RecordedEvent[];
