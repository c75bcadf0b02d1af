// wasm-sizes.mjs — where the bytes of a Go wasm build go, by package.
//
//   node scripts/wasm-sizes.mjs dist/web/toolnexus-unstripped.wasm [top]
//   DETAIL=encoding_json node scripts/wasm-sizes.mjs FILE.wasm [top]
//
// Build without -ldflags=-s to keep the symbol names. Data segments are
// reported as one line; DETAIL lists one package's largest functions.
import { readFileSync } from "node:fs";
import { pkgOf, readFunctions } from "./wasm-names.mjs";

const [file, topArg] = process.argv.slice(2);
if (!file) {
  console.error("usage: node scripts/wasm-sizes.mjs FILE.wasm [top]");
  process.exit(2);
}
const buf = readFileSync(file);
const { funcs, dataBytes } = readFunctions(buf);
const top = Number(topArg) || 30;
const detail = process.env.DETAIL;
if (detail) {
  funcs.filter((f) => pkgOf(f.name) === detail).sort((a, b) => b.size - a.size).slice(0, top)
    .forEach((f) => console.log(`${String(f.size).padStart(9)}  ${f.name}`));
  process.exit(0);
}
const byPkg = new Map();
for (const f of funcs) byPkg.set(pkgOf(f.name), (byPkg.get(pkgOf(f.name)) ?? 0) + f.size);
byPkg.set("(data segments)", dataBytes);
const rows = [...byPkg].sort((a, b) => b[1] - a[1]).slice(0, top);
console.log(`${file}: ${buf.length} bytes`);
for (const [p, s] of rows) console.log(`${String(s).padStart(9)}  ${(100 * s / buf.length).toFixed(1).padStart(5)}%  ${p}`);
