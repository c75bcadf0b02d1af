// browser-journal.mjs — a run's journal in the browser (issue 31), so that a
// tab killed mid-run (a crashed renderer, a closed laptop: no unload event)
// continues the run when the page opens again.
//
//   import { browserJournal } from "./browser-journal.mjs";
//   const journal = browserJournal("order-42");          // IndexedDB; memory where there is none (Node)
//   const result = await client.run(prompt, toolkit, { journal });
//   // … the tab dies; on the next load:
//   if (await journal.unfinished()) await client.continue(toolkit, journal);
//   await journal.clear();                              // once the result is kept elsewhere
//
// - The object is what client.run / client.stream / client.continue take as
//   journal: load() resolves to the entries recorded (JSON texts, in the
//   order recorded) and record(key, text) stores one entry. The Go core
//   decides what to record and when (core/journal); this module only keeps it.
// - Entries live in one object store whose key is [journal name, entry key],
//   so a second entry with a key recorded already — two tabs continuing one
//   run, a retried step — fails atomically with a "ConstraintError" (the
//   core reads it as "recorded already" and does not run the step twice).
//   An index on [journal name, seq] keeps their order, also unique.
// - record() resolves once its transaction has committed. durability
//   "strict" (the default) asks the browser to flush it to disk first, so
//   a recorded step survives a crash of the whole browser too; "relaxed"
//   survives a crashed or closed tab, and is faster.
// - Where IndexedDB is missing or refuses to open (Node, some private
//   modes) the journal is kept in memory: the same contract, for this
//   process only (kind says which).
// - Entries hold what the run holds (prompts, tool arguments and results):
//   clear() a journal once its run's result is kept elsewhere. Never put
//   secrets in a run you journal; provider keys are not in it.
// Importing this module touches no storage.

const DATABASE = "toolnexus-journal";
const VERSION = 1;
const STORE = "entries";
const ORDER = "order";

/**
 * @param {string} name the journal's name: one run at a time per name.
 * @param {{database?: string, indexedDB?: IDBFactory|null, durability?: "strict"|"relaxed"|"default"}} [options]
 */
export function browserJournal(name, { database = DATABASE, indexedDB: idb = globalThis.indexedDB,
  durability = "strict" } = {}) {
  if (typeof name !== "string" || name === "") throw new TypeError("toolnexus journal: a name is required");
  let backend = null;
  const ready = openBackend(database, idb, durability).then((b) => (backend = b));
  const use = (fn) => (backend ? fn(backend) : ready.then(fn));
  return Object.freeze({
    name,
    /** "indexeddb" or "memory" once chosen (await ready() first); "unknown" before. */
    get kind() { return backend?.kind ?? "unknown"; },
    ready: () => ready.then(() => undefined),
    /** The entries recorded, as JSON texts in the order recorded. */
    load: () => use((b) => b.load(name)),
    /**
     * Store one entry (JSON text) under key; rejects with a "ConstraintError"
     * (duplicate: true) when key is recorded already.
     */
    record: (key, text) => use((b) => b.record(name, String(key), String(text))),
    /** Whether the journal holds a run that has not ended (a run to continue). */
    async unfinished() {
      const entries = await use((b) => b.load(name));
      return entries.length > 0 && kindOf(entries.at(-1)) !== "end";
    },
    /** Forget every entry of this journal. */
    clear: () => use((b) => b.clear(name)),
  });
}

/**
 * recordedEvents reads a journal's entries (load()'s JSON texts) as the
 * stream events of the steps they record, so that a page continuing a run
 * can show what happened before it was cut off (client.streamContinue
 * reports only the steps it takes): {type: "text", delta} for a reply's
 * text, "tool_call" when a call began, "tool_result" for its recorded
 * outcome, and {type: "answer", request, answer} for a person's answer to
 * a request a call waited on.
 */
export function recordedEvents(texts) {
  const out = [];
  const begun = new Set();
  const asked = new Map(); // request id → request
  for (const text of texts ?? []) {
    let e;
    try { e = JSON.parse(text); } catch { continue; }
    switch (e?.kind) {
      case "turn":
        if (e.text) out.push({ type: "text", delta: String(e.text) });
        break;
      case "call":
        if (begun.has(e.call)) break;
        begun.add(e.call);
        out.push({ type: "tool_call", id: e.call, name: e.name, args: JSON.stringify(e.args ?? {}) });
        break;
      case "suspend":
        if (e.request?.id) asked.set(e.request.id, e.request);
        break;
      case "answer":
        if (asked.has(e.answer?.id)) out.push({ type: "answer", request: asked.get(e.answer.id), answer: e.answer });
        break;
      case "outcome":
        out.push({ type: "tool_result", id: e.call, name: e.name, args: e.asked ? JSON.stringify(e.args) : undefined,
          output: e.output ?? "", isError: !!e.isError, declined: !!e.declined, ...(e.asked ? { edited: true } : {}) });
        break;
    }
  }
  return out;
}

// kindOf reads an entry's kind; a damaged entry is no end.
function kindOf(text) {
  try {
    return JSON.parse(text)?.kind ?? "";
  } catch {
    return "";
  }
}

const opened = new Map(); // database name → Promise of its backend, shared by its journals

function openBackend(database, idb, durability) {
  const key = `${idb ? "idb" : "memory"}\u0000${database}\u0000${idb ? durability : ""}`;
  let p = opened.get(key);
  if (!p) {
    p = idb ? indexedDBBackend(database, idb, durability).catch(() => memoryBackend()) : Promise.resolve(memoryBackend());
    opened.set(key, p);
  }
  return p;
}

function indexedDBBackend(database, idb, durability) {
  return new Promise((resolve, reject) => {
    let req;
    try {
      req = idb.open(database, VERSION);
    } catch (err) {
      reject(err);
      return;
    }
    req.onupgradeneeded = () => {
      const db = req.result;
      if (!db.objectStoreNames.contains(STORE)) {
        const store = db.createObjectStore(STORE, { keyPath: ["journal", "key"] });
        store.createIndex(ORDER, ["journal", "seq"], { unique: true });
      }
    };
    req.onblocked = () => reject(new Error("toolnexus journal: IndexedDB upgrade blocked"));
    req.onerror = () => reject(req.error ?? new Error("toolnexus journal: IndexedDB did not open"));
    req.onsuccess = () => {
      const db = req.result;
      db.onversionchange = () => db.close();
      const all = (name) => IDBKeyRange.bound([name, -Infinity], [name, Infinity]);
      // tx runs fn(store, set, commit) in one transaction: set(v) is what the
      // Promise resolves to once it completed; commit() ends it as soon as
      // its last request is issued (a step waits on it: not when the task ends).
      const tx = (mode, fn) => new Promise((ok, fail) => {
        const t = mode === "readwrite" ? db.transaction(STORE, mode, { durability }) : db.transaction(STORE, mode);
        let out;
        t.oncomplete = () => ok(out);
        t.onabort = () => fail(t.error ?? new Error("toolnexus journal: transaction aborted"));
        try {
          fn(t.objectStore(STORE), (v) => { out = v; }, () => t.commit?.());
        } catch (err) {
          t.abort();
          fail(err);
        }
      });
      resolve({
        kind: "indexeddb",
        load: (name) => tx("readonly", (s, set) => {
          const r = s.index(ORDER).getAll(all(name));
          r.onsuccess = () => set(r.result.map((e) => e.text));
        }),
        // The next seq is read and the entry added in one transaction:
        // IndexedDB runs overlapping readwrite transactions one at a time,
        // so two tabs cannot take the same place.
        record: (name, key, text) => tx("readwrite", (s, set, commit) => {
          const last = s.index(ORDER).openCursor(all(name), "prev");
          last.onsuccess = () => {
            const seq = last.result ? last.result.value.seq + 1 : 0;
            s.add({ journal: name, key, seq, text });
            commit();
          };
        }).catch((err) => { throw refusal(err, key); }),
        clear: (name) => tx("readwrite", (s, set, commit) => {
          s.delete(IDBKeyRange.bound([name], [name, []]));
          commit();
        }),
      });
    };
  });
}

// refusal marks IndexedDB's error for a key recorded already as such.
function refusal(err, key) {
  if (err?.name !== "ConstraintError") return err;
  return Object.assign(new Error(`toolnexus journal: ${key} is recorded already`), { name: "ConstraintError", duplicate: true });
}

function memoryBackend() {
  const journals = new Map(); // name → {keys: Set, texts: []}
  const of = (name) => {
    let j = journals.get(name);
    if (!j) journals.set(name, (j = { keys: new Set(), texts: [] }));
    return j;
  };
  return {
    kind: "memory",
    load: async (name) => [...of(name).texts],
    record: async (name, key, text) => {
      const j = of(name);
      if (j.keys.has(key)) throw refusal({ name: "ConstraintError" }, key);
      j.keys.add(key);
      j.texts.push(text);
    },
    clear: async (name) => { journals.delete(name); },
  };
}
