// doc-sizes.mjs — the one place the documentation's size figures come from
// (issue 33: README, docs/ and the examples quoted four different sizes of
// the same build). It measures the shipped files in dist/ and writes them
// into the marked blocks of the docs; every other doc points to those.
//
//   node scripts/doc-sizes.mjs           print what the blocks would say
//   node scripts/doc-sizes.mjs --write   rewrite the blocks in place
//   node scripts/doc-sizes.mjs --embed   print the element's download per mode
//
// A block is the lines between `<!-- sizes:NAME -->` and `<!-- /sizes -->`.
// tests/budgets.test.mjs holds the blocks to the build (within DRIFT) and
// holds every other doc to quoting no whole build's size.
// Reads TOOLNEXUS_DIST (default dist/); run after ./build.sh and
// ./build.sh worker.

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const root = fileURLToPath(new URL("..", import.meta.url));

/** How far a quoted figure may drift from the build before a block is stale. */
export const DRIFT = 0.02;

/** The docs that hold blocks, relative to the repository root. */
export const DOCS = ["README.md", "web/examples/README.md"];

// What a page fetches to show <toolnexus-chat>: in remote mode (endpoint=…)
// the element, its engine, its vocabulary and the dialog with its forms and
// editor; local mode adds the loader and the wasm; the QR code's modules
// come when a durable run first waits on an approval link.
const REMOTE = ["toolnexus-chat.mjs", "chat-element.mjs", "chat-engine.mjs", "outcome.mjs", "styles.mjs", "wasm-urls.mjs",
  "approval-dialog.mjs", "question-form.mjs", "elicit-form.mjs", "outcome-form.mjs", "args-editor.mjs"];
const LOCAL = [...REMOTE, "toolnexus.mjs", "bridge-host.mjs", "agents-api.mjs", "wasm_exec.js", "toolnexus.wasm"];
export const EMBED_MODES = [
  { mode: "local", files: LOCAL, what: "the remote modules, `toolnexus.mjs` with `bridge-host.mjs` and `agents-api.mjs`, `wasm_exec.js`, `toolnexus.wasm`" },
  { mode: "demo", files: [...LOCAL, "demo-model.mjs", "demo-tools.mjs"], what: "the same plus `demo-model.mjs`, `demo-tools.mjs`" },
  { mode: "remote", files: REMOTE, what: REMOTE.map((f) => `\`${f}\``).join(", ") + "; no wasm" },
  { mode: "remote + QR code", files: [...REMOTE, "qr-code.mjs", "lean-qr.mjs"],
    what: "the same plus `qr-code.mjs` and `lean-qr.mjs`, fetched when a durable run first waits on its approval link" },
];

const BUILDS = [
  { file: "web/toolnexus.wasm", what: "`toolnexus.wasm` (default browser build: the loop, JS and HTTP tools, both wire formats)" },
  { file: "web/toolnexus-tools.wasm", what: "`toolnexus-tools.wasm` (+ MCP and A2A clients, built-ins, skills and agents)" },
  { file: "worker/build/app.wasm", what: "Worker `app.wasm` (`./build.sh worker`)" },
];

const gz = (b) => gzipSync(b, { level: 9 }).length;
const mb = (n, digits) => `${(n / 1e6).toFixed(digits)} MB`;
const kb = (n) => `${(n / 1e3).toFixed(1)} kB`;

// brotliOf reads the build's NAME.br, which ./build.sh writes for the
// browser builds (scripts/wasm-hash.mjs); the Worker's has none (Cloudflare
// stores and starts the upload itself), so it has no brotli figure.
function brotliOf(path) {
  try { return readFileSync(path + ".br").length; } catch { return null; }
}

/** measure reads the sizes of the builds and of each embedding mode in dist. */
export function measure(dist = process.env.TOOLNEXUS_DIST ?? join(root, "dist")) {
  const builds = BUILDS.map((b) => {
    const path = join(dist, b.file);
    const bytes = readFileSync(path);
    return { ...b, raw: bytes.length, gzip: gz(bytes), brotli: brotliOf(path) };
  });
  const embed = EMBED_MODES.map((m) => {
    let raw = 0;
    let gzip = 0;
    for (const f of m.files) {
      const bytes = readFileSync(join(dist, "web", f));
      raw += bytes.length;
      gzip += gz(bytes);
    }
    return { ...m, raw, gzip };
  });
  return { builds, embed };
}

/** blocks renders each block's lines from measured sizes. */
export function blocks({ builds, embed }) {
  const size = (n) => (n >= 1e6 ? mb(n, 2) : kb(n));
  return {
    builds: [
      "| Build | gzip (level 9) | raw | brotli (quality 11) |",
      "|---|---|---|---|",
      ...builds.map((b) => `| ${b.what} | ${mb(b.gzip, 3)} | ${mb(b.raw, 2)} | ${b.brotli == null ? "—" : mb(b.brotli, 2)} |`),
    ],
    embed: [
      "| Mode | Files | Raw | gzip (level 9) |",
      "|------|-------|-----|---------|",
      ...embed.map((m) => `| ${m.mode} | ${m.what} | ${size(m.raw)} | ${size(m.gzip)} |`),
    ],
  };
}

const BLOCK = /(<!-- sizes:([a-z]+) -->\n)([\s\S]*?)(<!-- \/sizes -->)/g;

/** quoted returns the blocks a doc's text holds: {name: lines}. */
export function quoted(text) {
  const out = {};
  for (const m of text.matchAll(BLOCK)) out[m[2]] = m[3].trimEnd().split("\n");
  return out;
}

/** rewrite returns text with every block replaced by the rendered one. */
export function rewrite(text, rendered) {
  return text.replace(BLOCK, (all, open, name, _body, close) => {
    if (!rendered[name]) throw new Error(`doc-sizes: no block named ${name}`);
    return `${open}${rendered[name].join("\n")}\n${close}`;
  });
}

/** figures lists the numbers of a block's lines, in MB/kB as written. */
export function figures(lines) {
  return lines.flatMap((l) => [...l.matchAll(/(\d+(?:\.\d+)?) (MB|kB)/g)].map((m) => Number(m[1]) * (m[2] === "MB" ? 1e6 : 1e3)));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const sizes = measure();
  const rendered = blocks(sizes);
  const arg = process.argv[2];
  if (arg === "--embed") {
    for (const m of sizes.embed) console.log(`   <toolnexus-chat> ${m.mode} mode downloads: ${m.raw} bytes raw, ${m.gzip} bytes gzip -9`);
  } else if (arg === "--write") {
    for (const doc of DOCS) {
      const path = join(root, doc);
      const text = readFileSync(path, "utf8");
      const next = rewrite(text, rendered);
      if (next !== text) writeFileSync(path, next);
      console.log(`${doc}: ${Object.keys(quoted(text)).join(", ") || "no blocks"}${next === text ? " (unchanged)" : " rewritten"}`);
    }
  } else {
    for (const [name, lines] of Object.entries(rendered)) console.log(`<!-- sizes:${name} -->\n${lines.join("\n")}\n<!-- /sizes -->`);
  }
}
