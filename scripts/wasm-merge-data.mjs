// wasm-merge-data.mjs — merge a linked wasm's data segments (Go's linker
// writes one per non-zero run: ~47,000 for the browser build). Segments of
// memory 0 at constant offsets that lie at most MAX_GAP bytes apart become
// one, the gap filled with zeros (memory starts zeroed, so the image is the
// same). Fewer segments: a smaller file and less work per instantiation.
//
//   node scripts/wasm-merge-data.mjs in.wasm [out.wasm=in.wasm] [maxGap=1024]
//   import { mergeDataSegments } from "./wasm-merge-data.mjs";  // bytes → bytes
//
// Used by build_browser and build_worker (scripts/browser.sh, scripts/worker.sh).

import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { leb, readLEB, sleb } from "./wasm-leb.mjs";

function readSLEB(b, p) {
  let r = 0, s = 0, x;
  do { x = b[p++]; r |= (x & 0x7f) << s; s += 7; } while (x & 0x80);
  if (s < 32 && x & 0x40) r |= -1 << s;
  return [r, p];
}

/** mergeDataSegments returns the module with its data segments merged, and counts. */
export function mergeDataSegments(bytes, maxGap = 1024) {
  if (bytes[0] !== 0 || bytes[1] !== 0x61 || bytes[2] !== 0x73 || bytes[3] !== 0x6d) throw new Error("not a wasm module");
  const sections = [];
  for (let p = 8; p < bytes.length;) {
    const id = bytes[p];
    const [len, start] = readLEB(bytes, p + 1);
    sections.push({ id, from: p, start, end: start + len });
    p = start + len;
  }
  const data = sections.find((s) => s.id === 11);
  if (!data) return { bytes, before: 0, after: 0 };
  let [count, p] = readLEB(bytes, data.start);
  const active = [], other = [];
  for (let i = 0; i < count; i++) {
    const segStart = p;
    const [flag, q] = readLEB(bytes, p);
    p = q;
    if (flag === 0 && bytes[p] === 0x41) { // active, memory 0, i32.const offset; end
      const [offset, q2] = readSLEB(bytes, p + 1);
      if (bytes[q2] !== 0x0b) throw new Error("unexpected data offset expression");
      const [len, q3] = readLEB(bytes, q2 + 1);
      active.push({ offset, data: bytes.subarray(q3, q3 + len) });
      p = q3 + len;
      continue;
    }
    // Anything else (passive segments, other memories, global offsets) is kept as it is.
    if (flag === 1) {
      const [len, q3] = readLEB(bytes, p);
      p = q3 + len;
    } else {
      if (flag === 2) p = readLEB(bytes, p)[1];
      while (bytes[p] !== 0x0b) p++; // a constant expression without 0x0b inside (global.get / i32.const)
      const [len, q3] = readLEB(bytes, p + 1);
      p = q3 + len;
    }
    other.push(bytes.subarray(segStart, p));
  }
  active.sort((a, b) => a.offset - b.offset);
  const merged = [];
  for (const s of active) {
    const last = merged.at(-1);
    if (last && s.offset >= last.end && s.offset - last.end <= maxGap) {
      last.parts.push({ offset: s.offset, data: s.data });
      last.end = s.offset + s.data.length;
    } else {
      merged.push({ offset: s.offset, end: s.offset + s.data.length, parts: [s] });
    }
  }
  const body = [];
  body.push(...leb(merged.length + other.length));
  const chunks = [Uint8Array.from(body)];
  for (const m of merged) {
    const head = [0, 0x41];
    head.push(...sleb(m.offset));
    head.push(0x0b);
    head.push(...leb(m.end - m.offset));
    const img = new Uint8Array(m.end - m.offset);
    for (const part of m.parts) img.set(part.data, part.offset - m.offset);
    chunks.push(Uint8Array.from(head), img);
  }
  chunks.push(...other);
  const payload = concat(chunks);
  const newCount = merged.length + other.length;
  const out = [bytes.subarray(0, 8)];
  for (const s of sections) {
    if (s.id === 11) {
      const head = [11];
      head.push(...leb(payload.length));
      out.push(Uint8Array.from(head), payload);
    } else if (s.id === 12) { // the data count section must agree
      const c = [];
      c.push(...leb(newCount));
      const head = [12];
      head.push(...leb(c.length));
      out.push(Uint8Array.from(head), Uint8Array.from(c));
    } else {
      out.push(bytes.subarray(s.from, s.end));
    }
  }
  return { bytes: concat(out), before: count, after: newCount };
}

function concat(parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) { out.set(p, o); o += p.length; }
  return out;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [input, output = input, gap = "1024"] = process.argv.slice(2);
  if (!input) { console.error("usage: node scripts/wasm-merge-data.mjs in.wasm [out.wasm] [maxGap]"); process.exit(2); }
  const res = mergeDataSegments(readFileSync(input), Number(gap));
  new WebAssembly.Module(res.bytes); // refuse to write a module the engine would not accept
  writeFileSync(output, res.bytes);
  console.log(`   ${output}: data segments ${res.before} → ${res.after}`);
}
