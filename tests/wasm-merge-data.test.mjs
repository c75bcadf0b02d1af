// wasm-merge-data.test.mjs — scripts/wasm-merge-data.mjs leaves a module
// whose memory after instantiation is byte for byte the linker's, with far
// fewer data segments.
//
//   cd tests && node --test wasm-merge-data.test.mjs

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { mergeDataSegments } from "../scripts/wasm-merge-data.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));

// memoryOf instantiates a Go wasm (without running it) and copies its memory.
function memoryOf(bytes) {
  const go = new globalThis.Go();
  const inst = new WebAssembly.Instance(new WebAssembly.Module(bytes), go.importObject);
  return new Uint8Array(inst.exports.mem.buffer.slice(0));
}

test("merged data segments give the same memory image", { timeout: 120_000 }, async () => {
  const goroot = execFileSync("go", ["env", "GOROOT"], { encoding: "utf8" }).trim();
  await import(pathToFileURL(join(goroot, "lib", "wasm", "wasm_exec.js")).href);
  const dir = mkdtempSync(join(tmpdir(), "merge-data-"));
  try {
    const file = join(dir, "app.wasm");
    execFileSync("go", ["build", "-trimpath", "-ldflags=-s -w", "-o", file, "./bench/minimal"],
      { cwd: root, env: { ...process.env, GOOS: "js", GOARCH: "wasm" } });
    const linked = readFileSync(file);
    for (const gap of [0, 32, 1024, 1e9]) {
      const { bytes, before, after } = mergeDataSegments(linked, gap);
      assert.ok(before > 1000, `the linker wrote ${before} segments`);
      assert.ok(after <= before);
      if (gap >= 32) assert.ok(after < before / 10, `gap ${gap}: ${before} → ${after}`);
      assert.deepEqual(memoryOf(bytes), memoryOf(linked), `gap ${gap}: the memory image differs`);
    }
    assert.throws(() => mergeDataSegments(new Uint8Array([1, 2, 3, 4, 1, 0, 0, 0])), /not a wasm module/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
