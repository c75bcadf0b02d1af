// wasm-leb.mjs — the LEB128 integers of the WebAssembly binary format, for the
// post-link steps that rewrite a module (wasm-findfunctab.mjs,
// wasm-merge-data.mjs).

/** readLEB reads an unsigned LEB128 at p: [value, the offset after it]. */
export function readLEB(b, p) {
  let r = 0, s = 0, x;
  do { x = b[p++]; r += (x & 0x7f) * 2 ** s; s += 7; } while (x & 0x80);
  return [r, p];
}

/** readSLEB reads a signed 32-bit LEB128 at p: [value, the offset after it]. */
export function readSLEB(b, p) {
  let r = 0, s = 0, x;
  do { x = b[p++]; r |= (x & 0x7f) << s; s += 7; } while (x & 0x80);
  if (s < 32 && x & 0x40) r |= -1 << s;
  return [r, p];
}

/** leb is n (≥ 0) as unsigned LEB128 bytes. */
export function leb(n) {
  const out = [];
  do {
    let x = n % 128;
    n = Math.floor(n / 128);
    if (n) x |= 0x80;
    out.push(x);
  } while (n);
  return out;
}

/** sleb is n (a 32-bit integer) as signed LEB128 bytes. */
export function sleb(n) {
  const out = [];
  for (;;) {
    const x = n & 0x7f;
    n >>= 7;
    if ((n === 0 && !(x & 0x40)) || (n === -1 && x & 0x40)) { out.push(x); return out; }
    out.push(x | 0x80);
  }
}
