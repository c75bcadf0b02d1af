// wasm-findfunctab.test.mjs — scripts/wasm-findfunctab.mjs takes the
// runtime's findfunctab out of a Go wasm's data, and the start function it
// adds writes the same bytes back: the memory after instantiation is the
// linker's byte for byte, and the program still runs. A module it does not
// recognise is left as it is.
//
//   cd tests && node --test wasm-findfunctab.test.mjs

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { fillFindFuncTab } from "../scripts/wasm-findfunctab.mjs";
import { mergeDataSegments } from "../scripts/wasm-merge-data.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));

// memoryOf instantiates a Go wasm (the start function runs; Go's does not)
// and copies its memory.
function memoryOf(bytes) {
  const go = new globalThis.Go();
  const inst = new WebAssembly.Instance(new WebAssembly.Module(bytes), go.importObject);
  return new Uint8Array(inst.exports.mem.buffer.slice(0));
}

// onlySegment returns the file offset and memory offset of the payload of a
// module whose data section holds exactly one segment.
function onlySegment(bytes) {
  const leb = (p) => { let r = 0, s = 0, x; do { x = bytes[p++]; r += (x & 0x7f) * 2 ** s; s += 7; } while (x & 0x80); return [r, p]; };
  for (let p = 8; p < bytes.length;) {
    const id = bytes[p];
    const [len, start] = leb(p + 1);
    if (id === 11) {
      const [count, q] = leb(start);
      assert.equal(count, 1);
      assert.equal(bytes[q + 1], 0x41);
      const [offset, q2] = leb(q + 2); // small positive offset: LEB as unsigned
      const [, q3] = leb(q2 + 1);
      return { file: q3, memory: offset };
    }
    p = start + len;
  }
  throw new Error("no data section");
}

let linked;
test.before(async () => {
  const goroot = execFileSync("go", ["env", "GOROOT"], { encoding: "utf8" }).trim();
  await import(pathToFileURL(join(goroot, "lib", "wasm", "wasm_exec.js")).href);
  const dir = mkdtempSync(join(tmpdir(), "findfunctab-"));
  try {
    const file = join(dir, "app.wasm");
    execFileSync("go", ["build", "-trimpath", "-ldflags=-s -w", "-o", file, "./bench/minimal"],
      { cwd: root, env: { ...process.env, GOOS: "js", GOARCH: "wasm" } });
    linked = readFileSync(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the start function writes the findfunctab the linker wrote", { timeout: 120_000 }, () => {
  const res = fillFindFuncTab(linked);
  assert.equal(res.reason, undefined);
  assert.ok(res.buckets > 10_000, `${res.buckets} records`);
  // The records leave the data: with the segments merged the module is
  // smaller by about 20 bytes a record.
  const before = mergeDataSegments(linked).bytes.length;
  const after = mergeDataSegments(res.bytes).bytes.length;
  assert.ok(before - after > res.buckets * 18, `merged ${before} → ${after} bytes`);
  assert.deepEqual(memoryOf(res.bytes), memoryOf(linked), "the memory image differs");
  assert.deepEqual(memoryOf(mergeDataSegments(res.bytes).bytes), memoryOf(linked), "the merged memory image differs");
});

test("the program runs with the table written at start", { timeout: 60_000 }, async () => {
  const go = new globalThis.Go();
  const { instance } = await WebAssembly.instantiate(mergeDataSegments(fillFindFuncTab(linked).bytes).bytes, go.importObject);
  delete globalThis.minimalReady;
  go.run(instance); // main sets minimalReady and blocks in select{}
  for (let i = 0; i < 100 && !globalThis.minimalReady; i++) await new Promise((r) => setTimeout(r, 10));
  assert.equal(globalThis.minimalReady, true);
});

test("a module it does not recognise is returned unchanged", { timeout: 120_000 }, () => {
  // Already filled: it has a start function.
  const once = fillFindFuncTab(linked).bytes;
  const twice = fillFindFuncTab(once);
  assert.equal(twice.bytes, once);
  assert.match(twice.reason, /start function/);

  // A table that is not k>>4 (one record's index changed) is kept.
  const { table } = fillFindFuncTab(linked);
  const one = Uint8Array.from(mergeDataSegments(linked, 1e9).bytes);
  const seg = onlySegment(one);
  one[seg.file + table + 20 * 40 - seg.memory] ^= 1; // record 40 holds 2 → 3
  const odd = fillFindFuncTab(one);
  assert.equal(odd.bytes, one);
  assert.match(odd.reason, /differs from k>>4 at byte 800 /);

  // Not Go: an empty module.
  const empty = Uint8Array.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]);
  assert.equal(fillFindFuncTab(empty).bytes, empty);
  assert.throws(() => fillFindFuncTab(new Uint8Array([1, 2, 3, 4, 1, 0, 0, 0])), /not a wasm module/);
});
