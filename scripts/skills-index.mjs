// skills-index.mjs — write the JSON index a page passes as createToolkit's
// skills option: {"files": {"<path>": "<text>", …}} for every file under a
// folder of skills (each skill a folder with a SKILL.md).
//
//   node scripts/skills-index.mjs path/to/skills dist/web/skills.json
//   …then: tnx.createToolkit({ skills: "./skills.json" })
//
// Paths are relative to the folder and use "/"; dot-files, node_modules and
// files over 256 KiB are left out.

import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";

const [dir, out] = process.argv.slice(2);
if (!dir || !out) {
  console.error("usage: node scripts/skills-index.mjs <skills folder> <out.json>");
  process.exit(2);
}
const files = {};
async function walk(d) {
  for (const e of (await readdir(d, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (e.name.startsWith(".") || e.name === "node_modules") continue;
    const p = join(d, e.name);
    if (e.isDirectory()) await walk(p);
    else if (e.isFile() && (await stat(p)).size <= 256 << 10) files[relative(dir, p).split(sep).join("/")] = await readFile(p, "utf8");
  }
}
await walk(dir);
await writeFile(out, JSON.stringify({ files }, null, 1) + "\n");
console.log(`${out}: ${Object.keys(files).length} files`);
