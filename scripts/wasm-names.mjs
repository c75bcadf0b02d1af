// wasm-names.mjs — the function names and sizes of a Go wasm module.
//
// `go tool nm` cannot read wasm, so this reads the module itself: the code
// section gives each function body's size, the "name" custom section its Go
// symbol (present only in builds without -ldflags=-s). Shared by
// wasm-sizes.mjs (where the bytes go) and tests/budgets.test.mjs (what must
// not be linked).

// readFunctions returns {funcs: [{name, size}], dataBytes} for the module
// bytes buf. A function without a name-section entry is named "?".
export function readFunctions(buf) {
  let pos = 8; // magic + version
  const leb = () => {
    let result = 0, shift = 0, b;
    do {
      b = buf[pos++];
      result += (b & 0x7f) * 2 ** shift;
      shift += 7;
    } while (b & 0x80);
    return result;
  };
  // Imported functions take the first function indexes; count them with the
  // engine's own parser.
  const imported = WebAssembly.Module.imports(new WebAssembly.Module(buf)).filter((i) => i.kind === "function").length;
  const sizes = [];
  const names = new Map();
  let dataBytes = 0;
  while (pos < buf.length) {
    const id = buf[pos++];
    const size = leb();
    const end = pos + size;
    if (id === 10) { // code
      for (let n = leb(); n > 0; n--) { const s = leb(); sizes.push(s); pos += s; }
    } else if (id === 11) { // data
      dataBytes += size;
    } else if (id === 0) { // custom: look for "name"
      const nameLen = leb();
      const secName = buf.toString("utf8", pos, pos + nameLen);
      pos += nameLen;
      while (secName === "name" && pos < end) {
        const sub = buf[pos++];
        const subEnd = pos + leb();
        if (sub === 1) { // function names
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
    pos = end;
  }
  return { funcs: sizes.map((size, i) => ({ name: names.get(i + imported) ?? "?", size })), dataBytes };
}

// pkgOf reduces a symbol of the name section to its package path:
// "a_b.__T_.M" → "a_b". The name section spells "/" as "_" and "(*T)" as
// "__T_", and module paths keep their dots ("github.com_tidwall_gjson.Get"),
// so a leading host name is skipped.
export function pkgOf(sym) {
  const host = sym.match(/^[a-z0-9-]+\.[a-z]+_/);
  const from = host ? host[0].length : 0;
  const dot = sym.indexOf(".", from);
  return dot > 0 ? sym.slice(0, dot) : sym;
}

// mangle spells a Go symbol as the name section does:
// "net/http.(*Client).Do" → "net_http.__Client_.Do".
export function mangle(goSymbol) {
  return goSymbol.replaceAll("/", "_").replaceAll("(*", "__").replaceAll(")", "_");
}
