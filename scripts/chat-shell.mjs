// chat-shell.mjs — keeps the box toolnexus-chat.mjs paints equal to the
// element's: web/toolnexus-chat.mjs holds a copy of web/chat-ui.mjs (the box)
// and of web/styles.mjs (the stylesheet's adoption) between two marker
// lines, so that it paints the box with no import of its own (each import
// is a round trip before the page can show it; issue 35). The copy is
// written from those two modules, never edited by hand.
//
//   node scripts/chat-shell.mjs          rewrite the copy in web/toolnexus-chat.mjs
//   node scripts/chat-shell.mjs --check  fail when the copy is stale (test_browser)

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const web = fileURLToPath(new URL("../web/", import.meta.url));
const BEGIN = "// --- begin: copied from chat-ui.mjs and styles.mjs by scripts/chat-shell.mjs; do not edit ---";
const END = "// --- end of the copy ---";

// body is a module's code without its header comment, imports and the
// export keywords: the copy's functions and constants are the module's own.
function body(file) {
  const lines = readFileSync(join(web, file), "utf8").split("\n");
  let i = 0;
  while (i < lines.length && (lines[i].startsWith("//") || lines[i] === "")) i++;
  return lines.slice(i)
    .filter((l) => !/^import\s/.test(l))
    .map((l) => l.replace(/^export (function|const|class) /, "$1 "))
    .join("\n").trim();
}

export function copy() {
  return [BEGIN, `// styles.mjs`, body("styles.mjs"), "", "// chat-ui.mjs", body("chat-ui.mjs"), END].join("\n");
}

const entry = join(web, "toolnexus-chat.mjs");
const text = readFileSync(entry, "utf8");
const a = text.indexOf(BEGIN), b = text.indexOf(END);
if (a < 0 || b < a) throw new Error(`chat-shell: ${entry} has no copy markers`);
const want = text.slice(0, a) + copy() + text.slice(b + END.length);
if (process.argv.includes("--check")) {
  if (want !== text) {
    console.error("chat-shell: web/toolnexus-chat.mjs's copy of chat-ui.mjs/styles.mjs is stale: run node scripts/chat-shell.mjs");
    process.exit(1);
  }
  console.log("chat-shell: web/toolnexus-chat.mjs's box is chat-ui.mjs's");
} else if (want !== text) {
  writeFileSync(entry, want);
  console.log("chat-shell: wrote the copy into web/toolnexus-chat.mjs");
}
