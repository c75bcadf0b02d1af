// vfs-store.mjs — keeps a toolkit's virtual file system in IndexedDB, so the
// files the agent wrote survive a reload.
//
//   import { vfsStore } from "./vfs-store.mjs";
//   const saved = vfsStore("demo");
//   const tk = await tnx.createToolkit({ tools, ...(await saved.toolkitOptions()) });
//   // files: the saved files; onFilesChange: saves every write and delete.
//
// - One record per name: the whole {path: text} map, stored as JSON text.
// - Without IndexedDB (or when it refuses to open) the files live in memory
//   only: the page works, the files just do not survive a reload.
// Importing this module touches no storage.

const DB = "toolnexus-files";
const OBJECTS = "vfs";

/** @param {string} name  the record's key (one per page or app) */
export function vfsStore(name, { indexedDB: idb = globalThis.indexedDB } = {}) {
  let db = null;
  const open = () => (db ??= openDB(idb).catch(() => null));
  let files = {};
  let writing = Promise.resolve();
  const persist = () => {
    const text = JSON.stringify(files);
    writing = writing.then(async () => {
      const d = await open();
      if (d) await request(d.transaction(OBJECTS, "readwrite").objectStore(OBJECTS).put(text, name));
    }).catch((err) => console.warn("toolnexus: the files were not saved:", err));
    return writing;
  };
  return Object.freeze({
    /** The saved files as {path: text} ({} when there are none). */
    async load() {
      const d = await open();
      if (!d) return {};
      try {
        const text = await request(d.transaction(OBJECTS, "readonly").objectStore(OBJECTS).get(name));
        const v = typeof text === "string" ? JSON.parse(text) : null;
        files = v && typeof v === "object" && !Array.isArray(v) ? v : {};
      } catch {
        files = {};
      }
      return { ...files };
    },
    /** Record one change: text null deletes the file. Resolves once stored. */
    change(path, text) {
      if (text == null) delete files[path];
      else files[path] = String(text);
      return persist();
    },
    /** Forget every saved file. */
    clear() {
      files = {};
      return persist();
    },
    /** {files, onFilesChange} for createToolkit, loaded from storage. */
    async toolkitOptions() {
      return { files: await this.load(), onFilesChange: (path, text) => { this.change(path, text); } };
    },
    /** Resolves once every change made so far is stored. */
    flush: () => writing,
  });
}

function openDB(idb) {
  if (!idb) return Promise.reject(new Error("no IndexedDB"));
  return new Promise((resolve, reject) => {
    const req = idb.open(DB, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(OBJECTS);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
    req.onblocked = () => reject(new Error("IndexedDB is blocked"));
  });
}

function request(req) {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}
