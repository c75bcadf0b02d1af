// files-panel.mjs — the demo page's "Files" panel: the agent's virtual file
// system, redrawn after every change, optionally kept in IndexedDB.
//
//   const panel = filesPanel({ list, persist });   // a <ul> and a checkbox
//   const tk = await tnx.createToolkit({ tools, ...(await panel.toolkitOptions()) });
//   panel.attach(tk);                              // draws tk.files()
//
// File names and contents are shown with textContent, never as HTML.

import { vfsStore } from "./vfs-store.mjs";

const PERSIST_KEY = "toolnexus-demo:keep-files";

export function filesPanel({ list, persist, name = "demo" }) {
  const saved = vfsStore(name);
  let toolkit = null;
  let drawing = Promise.resolve();
  // The checkbox's state itself is remembered (on unless turned off).
  try { persist.checked = localStorage.getItem(PERSIST_KEY) !== "off"; } catch { /* default */ }
  persist.addEventListener("change", async () => {
    try { localStorage.setItem(PERSIST_KEY, persist.checked ? "on" : "off"); } catch { /* not kept */ }
    if (!persist.checked) return saved.clear();
    if (toolkit) for (const [p, t] of Object.entries(await toolkit.files())) saved.change(p, t);
  });

  function draw(files) {
    const paths = Object.keys(files).sort();
    list.replaceChildren(...paths.map((p) => {
      const li = list.ownerDocument.createElement("li");
      const details = list.ownerDocument.createElement("details");
      const summary = list.ownerDocument.createElement("summary");
      summary.textContent = `${p} (${new TextEncoder().encode(files[p]).length} bytes)`;
      const pre = list.ownerDocument.createElement("pre");
      pre.textContent = files[p];
      details.append(summary, pre);
      details.open = true;
      li.dataset.path = p;
      li.append(details);
      return li;
    }));
    if (paths.length === 0) {
      const li = list.ownerDocument.createElement("li");
      li.className = "empty";
      li.textContent = "No files yet. Try: write a note";
      list.append(li);
    }
    list.dataset.count = String(paths.length);
  }

  const redraw = () => {
    if (!toolkit) return drawing;
    drawing = drawing.then(() => toolkit.files()).then(draw).catch((err) => console.warn("toolnexus demo: files:", err));
    return drawing;
  };

  return Object.freeze({
    /** {files, onFilesChange} for createToolkit: the saved files when keeping them is on. */
    async toolkitOptions() {
      const files = persist.checked ? await saved.load() : {};
      return {
        files,
        onFilesChange: (path, text) => {
          if (persist.checked) saved.change(path, text);
          queueMicrotask(redraw);
        },
      };
    },
    /** Show this toolkit's files from now on. */
    attach(tk) {
      toolkit = tk;
      return redraw();
    },
    redraw,
    /** Resolves once the saved copy is up to date. */
    flush: () => saved.flush(),
  });
}
