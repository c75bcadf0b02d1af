// store.mjs — a small conversation store for the browser, so a reload keeps
// the conversation (and a halted run waiting for a person's answer).
//
//   import { browserStore } from "./store.mjs";
//   const store = browserStore();                 // IndexedDB, else localStorage, else memory
//   await store.save("demo", result.messages, { pending: result.pending });
//   const saved = await store.get("demo");        // {messages, pending?, savedAt} or null
//   await store.clear("demo");
//
// - Records are plain JSON: save() stores JSON text, so functions and DOM
//   nodes never reach storage and a record reads back exactly as written.
// - get(id) resolves to {messages, ...extra, savedAt} or null; messages is
//   the transcript in the provider's wire format (RunResult.messages), the
//   same thing Go's ConversationStore keeps.
// - IndexedDB is used when the page has it; localStorage only when IndexedDB
//   is missing or refuses to open (some private modes); memory as a last
//   resort, so the page still works, just without surviving a reload.
// - Once the database is open, save() issues (and commits) its write before
//   it returns. Chromium still loses some IndexedDB writes made while a page
//   unloads, so save(id, messages, extra, {urgent: true}) — for pagehide —
//   also writes the record synchronously to localStorage as a journal entry;
//   get() takes whichever copy is newer and moves a newer journal entry into
//   IndexedDB. A write still in flight when pagehide comes (a save made just
//   before a reload) is journaled then too, so it is not lost either.
// - Never store secrets here: provider keys stay in memory only.
// Importing this module touches no storage.

const DB_VERSION = 1;
const OBJECTS = "conversations";

/**
 * @param {{name?: string, indexedDB?: IDBFactory|null, localStorage?: Storage|null}} [options]
 *   name is the IndexedDB database name and the localStorage key prefix.
 */
export function browserStore({ name = "toolnexus", indexedDB: idb = globalThis.indexedDB,
  localStorage: ls = safeLocalStorage() } = {}) {
  let backend = null; // the chosen backend, once known
  const ready = pickBackend(name, idb, ls).then((b) => (backend = b));
  const use = (fn) => (backend ? fn(backend) : ready.then(fn));
  const journal = (id) => `${name}:journal:${id}`;
  const dropJournal = (id) => { try { ls?.removeItem(journal(id)); } catch { /* nothing to drop */ } };
  const writeJournal = (id, text) => { try { ls?.setItem(journal(id), text); } catch { /* full or refused: IndexedDB may still make it */ } };
  // inFlight: the newest IndexedDB write per id that has not committed yet.
  // pagehide journals them: the page may be gone before they commit.
  const inFlight = new Map();
  let watching = false;
  // savedAt only grows within one store: two saves in the same millisecond
  // must still tell which is newer (get() compares them with the journal).
  let lastSavedAt = 0;
  const onPageHide = () => {
    if (backend && backend.kind !== "indexeddb") return; // its writes are already synchronous
    for (const [id, text] of inFlight) writeJournal(id, text);
  };
  const track = (k, text, put) => {
    if (!watching && typeof globalThis.addEventListener === "function") {
      globalThis.addEventListener("pagehide", onPageHide);
      watching = true;
    }
    inFlight.set(k, text);
    const settle = () => { if (inFlight.get(k) === text) inFlight.delete(k); };
    return put.then(settle, (err) => { settle(); throw err; });
  };
  return Object.freeze({
    /** "indexeddb", "localstorage" or "memory" once chosen (await ready() first). */
    get kind() { return backend?.kind ?? "unknown"; },
    ready: () => ready.then(() => undefined),
    /** The saved record for id, or null. */
    async get(id) {
      const k = key(id);
      const b = backend ?? await ready;
      const stored = decode(await b.get(k));
      if (b.kind !== "indexeddb") return stored;
      let text = null;
      try { text = ls?.getItem(journal(k)) ?? null; } catch { /* no journal */ }
      const noted = decode(text);
      if (!noted) return stored;
      if (stored && (stored.savedAt ?? 0) >= (noted.savedAt ?? 0)) {
        dropJournal(k);
        return stored;
      }
      await b.put(k, text);
      dropJournal(k);
      return noted;
    },
    /**
     * Save messages (and extra fields such as pending) under id, replacing
     * what was there. urgent: also journal it synchronously (pagehide).
     */
    save(id, messages, extra = {}, { urgent = false } = {}) {
      const k = key(id);
      const text = JSON.stringify({ ...extra, messages: Array.isArray(messages) ? messages : [],
        savedAt: (lastSavedAt = Math.max(Date.now(), lastSavedAt + 1)) });
      if (urgent && backend?.kind !== "localstorage") writeJournal(k, text);
      const put = use((b) => b.put(k, text));
      return backend?.kind === "localstorage" || backend?.kind === "memory" ? put : track(k, text, put);
    },
    /** Forget id. */
    clear(id) {
      const k = key(id);
      inFlight.delete(k);
      dropJournal(k);
      return use((b) => b.delete(k));
    },
  });
}

function key(id) {
  if (id == null || id === "") throw new TypeError("toolnexus store: an id is required");
  return String(id);
}

function decode(text) {
  if (typeof text !== "string") return null;
  try {
    const v = JSON.parse(text);
    return v && typeof v === "object" && Array.isArray(v.messages) ? v : null;
  } catch {
    return null; // a damaged record is as good as none
  }
}

async function pickBackend(name, idb, ls) {
  if (idb) {
    try {
      return await indexedDBBackend(name, idb);
    } catch { /* refused (private mode, blocked): try the next one */ }
  }
  if (ls) return localStorageBackend(name, ls);
  return memoryBackend();
}

function indexedDBBackend(name, idb) {
  return new Promise((resolve, reject) => {
    let req;
    try {
      req = idb.open(name, DB_VERSION);
    } catch (err) {
      reject(err);
      return;
    }
    req.onupgradeneeded = () => {
      if (!req.result.objectStoreNames.contains(OBJECTS)) req.result.createObjectStore(OBJECTS);
    };
    req.onblocked = () => reject(new Error("toolnexus store: IndexedDB upgrade blocked"));
    req.onerror = () => reject(req.error ?? new Error("toolnexus store: IndexedDB did not open"));
    req.onsuccess = () => {
      const db = req.result;
      // Another tab upgrading the database: let it, this handle is done.
      db.onversionchange = () => db.close();
      const tx = (mode, fn) => new Promise((ok, fail) => {
        const t = db.transaction(OBJECTS, mode);
        const r = fn(t.objectStore(OBJECTS));
        // Commit now rather than when the task ends: a write issued during
        // pagehide must not wait for a task that will never run.
        if (mode === "readwrite") t.commit?.();
        t.oncomplete = () => ok(r.result);
        t.onerror = () => fail(t.error ?? r.error);
        t.onabort = () => fail(t.error ?? new Error("toolnexus store: transaction aborted"));
      });
      resolve({
        kind: "indexeddb",
        get: (k) => tx("readonly", (s) => s.get(k)),
        put: (k, v) => tx("readwrite", (s) => s.put(v, k)).then(() => undefined),
        delete: (k) => tx("readwrite", (s) => s.delete(k)).then(() => undefined),
      });
    };
  });
}

function localStorageBackend(name, ls) {
  const k = (id) => `${name}:${id}`;
  return {
    kind: "localstorage",
    get: async (id) => ls.getItem(k(id)),
    put: async (id, v) => { ls.setItem(k(id), v); },
    delete: async (id) => { ls.removeItem(k(id)); },
  };
}

function memoryBackend() {
  const m = new Map();
  return {
    kind: "memory",
    get: async (id) => m.get(id) ?? null,
    put: async (id, v) => { m.set(id, v); },
    delete: async (id) => { m.delete(id); },
  };
}

// Reading window.localStorage throws in some sandboxed frames.
function safeLocalStorage() {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}
