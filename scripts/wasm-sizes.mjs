// wasm-sizes.mjs — where the bytes of a Go wasm build go, by package.
//
//   node scripts/wasm-sizes.mjs dist/web/toolnexus-unstripped.wasm [top]
//
// `go tool nm` cannot read wasm, so this reads the module itself: the code
// section gives each function body's size, the "name" custom section its
// Go symbol (build without -ldflags=-s to keep it). Data segments are
// reported as one line.
import { readFileSync } from "node:fs";

const [file, topArg] = process.argv.slice(2);
if (!file) {
  console.error("usage: node scripts/wasm-sizes.mjs FILE.wasm [top]");
  process.exit(2);
}
const buf = readFileSync(file);
let pos = 8; // magic + version

function leb() {
  let result = 0, shift = 0, b;
  do {
    b = buf[pos++];
    result += (b & 0x7f) * 2 ** shift;
    shift += 7;
  } while (b & 0x80);
  return result;
}

// Imported functions take the first function indexes; count them with the
// engine's own parser.
const importedFuncs = WebAssembly.Module.imports(new WebAssembly.Module(buf)).filter((i) => i.kind === "function").length;
const bodySizes = [];
const names = new Map();
let dataBytes = 0;
while (pos < buf.length) {
  const id = buf[pos++];
  const size = leb();
  const end = pos + size;
  if (id === 10) { // code
    for (let n = leb(); n > 0; n--) { const s = leb(); bodySizes.push(s); pos += s; }
  } else if (id === 11) {
    dataBytes += size;
  } else if (id === 0) { // custom: look for "name"
    const nameLen = leb();
    const secName = buf.toString("utf8", pos, pos + nameLen);
    pos += nameLen;
    if (secName === "name") {
      while (pos < end) {
        const sub = buf[pos++];
        const subSize = leb();
        const subEnd = pos + subSize;
        if (sub === 1) {
          for (let n = leb(); n > 0; n--) {
            const idx = leb();
            const l = leb();
            names.set(idx, buf.toString("utf8", pos, pos + l));
            pos += l;
          }
        }
        pos = subEnd;
      }
    }
  }
  pos = end;
}

// pkgOf reduces a Go symbol to its package path: "a/b.(*T).M" → "a/b".
// The name section spells "/" as "_", and module paths keep their dots
// ("github.com_tidwall_gjson.Get"), so skip a leading host name.
function pkgOf(sym) {
  const host = sym.match(/^[a-z0-9-]+\.[a-z]+_/);
  const from = host ? host[0].length : 0;
  const dot = sym.indexOf(".", from);
  return dot > 0 ? sym.slice(0, dot) : sym;
}

const byPkg = new Map();
bodySizes.forEach((s, i) => {
  const sym = names.get(i + importedFuncs) ?? "?";
  const p = pkgOf(sym);
  byPkg.set(p, (byPkg.get(p) ?? 0) + s);
});
byPkg.set("(data segments)", dataBytes);
const total = buf.length;
const detail = process.env.DETAIL; // a package: list its largest functions instead
if (detail) {
  const fns = bodySizes.map((s, i) => [names.get(i + importedFuncs) ?? "?", s]).filter(([n]) => pkgOf(n) === detail);
  fns.sort((a, b) => b[1] - a[1]).slice(0, Number(topArg) || 30).forEach(([n, s]) => console.log(`${String(s).padStart(9)}  ${n}`));
  process.exit(0);
}
const rows = [...byPkg].sort((a, b) => b[1] - a[1]).slice(0, Number(topArg) || 30);
console.log(`${file}: ${total} bytes`);
for (const [p, s] of rows) console.log(`${String(s).padStart(9)}  ${(100 * s / total).toFixed(1).padStart(5)}%  ${p}`);
