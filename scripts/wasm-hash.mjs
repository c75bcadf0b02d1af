// wasm-hash.mjs — the last step of the browser build: give each wasm a
// content-hashed name a server can cache for good, point the bundle at it,
// and precompress the wasm with brotli.
//
//   node scripts/wasm-hash.mjs DIR      (DIR = dist/web, after the web/ files were copied)
//
// For toolnexus.wasm and toolnexus-tools.wasm it writes toolnexus.<hash>.wasm
// (the first 10 hex digits of the SHA-256 of its bytes) beside the plain name,
// which stays for load({wasm: "./dist/web/toolnexus.wasm"}); rewrites the names
// in DIR/wasm-urls.mjs (what load(), <toolnexus-chat> and the demo fetch by
// default) and in the demo page's preload hint (DIR/index.html); and writes
// NAME.br beside every wasm with Node's brotli at quality 11 (scripts/serve.mjs
// sends it with Content-Encoding: br to browsers that accept it). It prints the
// bytes: raw, gzip -9, brotli.

import { createHash } from "node:crypto";
import { readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { brotliCompress, constants, gzipSync } from "node:zlib";

const HASHED = /^toolnexus(-tools)?\.[0-9a-f]{10}\.wasm(\.br)?$/;

/** hashedName("toolnexus.wasm", bytes) → "toolnexus.<10 hex>.wasm". */
export function hashedName(name, bytes) {
  const hash = createHash("sha256").update(bytes).digest("hex").slice(0, 10);
  return name.replace(/\.wasm$/, `.${hash}.wasm`);
}

// brotli runs on libuv's thread pool: the two builds compress in parallel.
export function brotli(bytes) {
  return promisify(brotliCompress)(bytes, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 11,
      [constants.BROTLI_PARAM_LGWIN]: 24,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  });
}

export async function hashWasm(dir) {
  for (const f of readdirSync(dir)) if (HASHED.test(f)) rmSync(join(dir, f)); // an older build's
  const urls = join(dir, "wasm-urls.mjs");
  let urlsText = readFileSync(urls, "utf8");
  const index = join(dir, "index.html");
  let indexText = readFileSync(index, "utf8");
  const out = [];
  const names = ["toolnexus.wasm", "toolnexus-tools.wasm"];
  const all = names.map((name) => readFileSync(join(dir, name)));
  const compressed = await Promise.all(all.map(brotli));
  for (const [i, name] of names.entries()) {
    const bytes = all[i], br = compressed[i];
    const hashed = hashedName(name, bytes);
    for (const n of [name, hashed]) {
      writeFileSync(join(dir, n), bytes);
      writeFileSync(join(dir, `${n}.br`), br);
    }
    // wasm-urls.mjs names each file once, as new URL("./name", import.meta.url).
    const quoted = JSON.stringify(`./${name}`);
    if (urlsText.split(quoted).length !== 2) throw new Error(`wasm-hash: ${urls} does not name ${quoted} exactly once`);
    urlsText = urlsText.replace(quoted, JSON.stringify(`./${hashed}`));
    indexText = indexText.replaceAll(`href="${name}"`, `href="${hashed}"`);
    out.push({ name, hashed, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length, brotli: br.length });
  }
  writeFileSync(urls, urlsText);
  writeFileSync(index, indexText);
  return out;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2];
  if (!dir) {
    console.error("usage: node scripts/wasm-hash.mjs DIR");
    process.exit(2);
  }
  for (const r of await hashWasm(dir)) {
    console.log(`   ${r.name} → ${r.hashed}: ${r.raw} bytes raw, ${r.gzip} zlib gzip level 9, ${r.brotli} brotli (quality 11)`);
  }
}
