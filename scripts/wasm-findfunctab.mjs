// wasm-findfunctab.mjs — take the Go runtime's findfunctab out of a linked
// wasm's data and have a start function write it at instantiation.
//
// findfunctab maps a PC to its function for tracebacks and the garbage
// collector's stack scans: one 20-byte record per 4 kB of text. On wasm every
// function owns 64 kB of PC space, so the table is 16 identical records per
// function — 927 kB of the browser build's 4.99 MB (19 %) that say only
// "record k holds k>>4". Start-up time follows a module's raw bytes (issue 27:
// ~44 ms per MB on a first visit), and no linker flag drops the table, so this
// post-link step does: the records' bytes leave the data segments and a
// ~50-byte start function stores k>>4 into each record before Go's runtime
// reads it (a start function runs when the module is instantiated, after the
// data segments are copied, on every host: browser, Node, workerd).
//
// It is exact or nothing: the table is found through the runtime's own
// moduledata (pcHeader magic → the moduledata pointing at it → its
// findfunctab, minpc and maxpc fields), every byte of it is compared with what
// the start function will write, and a module that differs (another Go
// release's layout, another architecture) is returned unchanged with the
// reason. The memory image after instantiation is the linker's, byte for byte
// (tests/wasm-findfunctab.test.mjs).
//
//   node scripts/wasm-findfunctab.mjs in.wasm [out.wasm=in.wasm]
//   import { fillFindFuncTab } from "./wasm-findfunctab.mjs";  // bytes → {bytes, ...}
//
// Used by merge_wasm_data (scripts/wasm-data.sh) before the segment merge.

import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { leb, readLEB, readSLEB, sleb } from "./wasm-leb.mjs";

const bucketSize = 4096; // abi.FuncTabBucketSize
const subbuckets = 16; // records are a uint32 base index and 16 one-byte deltas
const recordSize = 4 + subbuckets;
const pcHeaderMagic = [0xf1, 0xff, 0xff, 0xff, 0, 0, 1, 8]; // Go120PCLnTabMagic, pads, minLC 1, ptrSize 8

const section = (id, body) => concat([Uint8Array.from([id, ...leb(body.length)]), Uint8Array.from(body)]);

function concat(parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) { out.set(p, o); o += p.length; }
  return out;
}

// vector reads a section body that is a count and entries, returning the
// count and the raw bytes after it (entries are appended, never parsed).
function vector(body) {
  const [count, p] = readLEB(body, 0);
  return { count, rest: body.subarray(p) };
}

function parseSections(bytes) {
  const sections = [];
  for (let p = 8; p < bytes.length;) {
    const id = bytes[p];
    const [len, start] = readLEB(bytes, p + 1);
    sections.push({ id, body: bytes.subarray(start, start + len) });
    p = start + len;
  }
  return sections;
}

// activeSegments lists the data section's segments; only active segments of
// memory 0 at an i32.const offset (what Go's linker writes) are understood.
function activeSegments(body) {
  let [count, p] = readLEB(body, 0);
  const segs = [];
  for (let i = 0; i < count; i++) {
    const [flag, q] = readLEB(body, p);
    if (flag !== 0 || body[q] !== 0x41) return null;
    const [offset, q2] = readSLEB(body, q + 1);
    if (body[q2] !== 0x0b) return null;
    const [len, q3] = readLEB(body, q2 + 1);
    segs.push({ offset, data: body.subarray(q3, q3 + len) });
    p = q3 + len;
  }
  return segs;
}

// locate finds the findfunctab through the runtime's moduledata and checks
// that it is the table the start function writes.
function locate(mem) {
  const dv = new DataView(mem.buffer, mem.byteOffset, mem.byteLength);
  const u64 = (a) => (a + 8 <= mem.length ? Number(dv.getBigUint64(a, true)) : -1);
  const headers = [];
  for (let a = 0; a + 8 <= mem.length; a += 8) {
    if (pcHeaderMagic.every((x, i) => mem[a + i] === x)) headers.push(a);
  }
  for (const hdr of headers) {
    for (let md = 0; md + 176 <= mem.length; md += 8) {
      if (u64(md) !== hdr) continue;
      // moduledata: pcHeader, then six slices (funcnametab cutab filetab
      // pctab pclntable ftab), then findfunctab, minpc, maxpc. The
      // funcnametab must sit where the header says and ftab must start the
      // pclntable, else this is not the layout we know.
      if (u64(md + 8) !== hdr + u64(hdr + 32) || u64(md + 128) !== u64(md + 104)) continue;
      const table = u64(md + 152), minpc = u64(md + 160), maxpc = u64(md + 168);
      if (!(maxpc > minpc) || table <= 0) continue;
      const span = maxpc - minpc;
      const buckets = Math.ceil(span / bucketSize);
      const size = 4 * buckets + Math.ceil(span / (bucketSize / subbuckets));
      if (table + size > mem.length) return { reason: "findfunctab lies past the data" };
      const want = expected(buckets, size);
      for (let i = 0; i < size; i++) {
        if (mem[table + i] !== want[i]) return { reason: `findfunctab differs from k>>4 at byte ${i} of ${size}` };
      }
      return { table, buckets, size };
    }
  }
  return { reason: "no Go moduledata found" };
}

// expected is the table as the start function writes it: record k holds the
// little-endian uint32 k>>4 (16 records of 4 kB per 64 kB function) and zero
// deltas.
function expected(buckets, size) {
  const t = new Uint8Array(size);
  const dv = new DataView(t.buffer);
  for (let k = 0; k < buckets; k++) dv.setUint32(k * recordSize, k >>> 4, true);
  return t;
}

// startBody is the code of the start function: for k in [0, buckets)
// store k>>4 at table + 20*k.
function startBody(table, buckets) {
  const code = [
    1, 1, 0x7f, // one local: k i32
    0x03, 0x40, // loop
    0x20, 0, 0x41, recordSize, 0x6c, // local.get k; i32.const 20; i32.mul
    0x20, 0, 0x41, 4, 0x76, // local.get k; i32.const 4; i32.shr_u
    0x36, 2, ...leb(table), // i32.store align=4 offset=table
    0x20, 0, 0x41, 1, 0x6a, 0x22, 0, // k = k + 1 (local.tee)
    0x41, ...sleb(buckets), 0x49, // i32.const buckets; i32.lt_u
    0x0d, 0, // br_if loop
    0x0b, 0x0b, // end loop, end func
  ];
  return [...leb(code.length), ...code];
}

/**
 * fillFindFuncTab returns the module without the findfunctab's bytes in its
 * data and with a start function that writes them, or the module unchanged
 * and the reason.
 * @returns {{bytes: Uint8Array, removed: number, reason?: string}}
 */
export function fillFindFuncTab(bytes) {
  if (bytes[0] !== 0 || bytes[1] !== 0x61 || bytes[2] !== 0x73 || bytes[3] !== 0x6d) throw new Error("not a wasm module");
  const unchanged = (reason) => ({ bytes, removed: 0, reason });
  const sections = parseSections(bytes);
  const byId = (id) => sections.find((s) => s.id === id);
  if (byId(8)) return unchanged("the module has a start function already");
  const data = byId(11);
  if (!data || !byId(1) || !byId(3) || !byId(10)) return unchanged("no data, type, function or code section");
  const segs = activeSegments(data.body);
  if (!segs) return unchanged("a data segment is not an active i32.const one");
  const mem = new Uint8Array(segs.reduce((m, s) => Math.max(m, s.offset + s.data.length), 0));
  for (const s of segs) mem.set(s.data, s.offset);
  const found = locate(mem);
  if (found.reason) return unchanged(found.reason);
  const lo = found.table, hi = found.table + found.size;

  // The segments without the table's bytes (memory starts zeroed).
  const kept = [];
  for (const s of segs) {
    const end = s.offset + s.data.length;
    if (end <= lo || s.offset >= hi) { kept.push(s); continue; }
    if (s.offset < lo) kept.push({ offset: s.offset, data: s.data.subarray(0, lo - s.offset) });
    if (end > hi) kept.push({ offset: hi, data: s.data.subarray(hi - s.offset) });
  }
  const dataBody = [Uint8Array.from(leb(kept.length))];
  for (const s of kept) dataBody.push(Uint8Array.from([0, 0x41, ...sleb(s.offset), 0x0b, ...leb(s.data.length)]), s.data);

  // One more type (func () -> ()), function and body; its index follows the
  // imported and the defined functions.
  const types = vector(byId(1).body), funcs = vector(byId(3).body), codes = vector(byId(10).body);
  let imported = 0;
  const imports = byId(2);
  if (imports) {
    const mod = new WebAssembly.Module(bytes);
    imported = WebAssembly.Module.imports(mod).filter((i) => i.kind === "function").length;
  }
  const startIndex = imported + funcs.count;
  const dataCount = byId(12);
  const out = [bytes.subarray(0, 8)];
  let startWritten = false;
  for (const s of sections) {
    // The start section goes after the exports, before elements, data count, code and data.
    if (!startWritten && [9, 12, 10, 11].includes(s.id)) {
      out.push(section(8, leb(startIndex)));
      startWritten = true;
    }
    if (s.id === 1) out.push(section(1, concat([Uint8Array.from(leb(types.count + 1)), types.rest, Uint8Array.from([0x60, 0, 0])])));
    else if (s.id === 3) out.push(section(3, concat([Uint8Array.from(leb(funcs.count + 1)), funcs.rest, Uint8Array.from(leb(types.count))])));
    else if (s.id === 10) out.push(section(10, concat([Uint8Array.from(leb(codes.count + 1)), codes.rest, Uint8Array.from(startBody(lo, found.buckets))])));
    else if (s.id === 11) out.push(section(11, concat(dataBody)));
    else if (s.id === 12 && dataCount) out.push(section(12, leb(kept.length)));
    else out.push(section(s.id, s.body));
  }
  const result = concat(out);
  return { bytes: result, removed: bytes.length - result.length, table: lo, buckets: found.buckets };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [input, output = input] = process.argv.slice(2);
  if (!input) { console.error("usage: node scripts/wasm-findfunctab.mjs in.wasm [out.wasm]"); process.exit(2); }
  const res = fillFindFuncTab(readFileSync(input));
  new WebAssembly.Module(res.bytes); // refuse to write a module the engine would not accept
  writeFileSync(output, res.bytes);
  if (res.reason) console.log(`   ${output}: findfunctab kept (${res.reason})`);
  else console.log(`   ${output}: findfunctab (${res.buckets} records) written by a start function, ${res.removed} bytes smaller`);
}
