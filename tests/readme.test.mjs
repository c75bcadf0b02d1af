// readme.test.mjs — the README's examples run as written. Each code block
// after a `<!-- readme-test: node -->` or `<!-- readme-test: go -->` marker
// is extracted, run from the repository root, and its output checked.
//
//   ./build.sh && cd tests && timeout 300 node --test readme.test.mjs

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);
const root = fileURLToPath(new URL("..", import.meta.url));
const readme = readFileSync(join(root, "README.md"), "utf8");

// snippet returns the fenced block that follows the marker.
function snippet(kind) {
  const m = readme.match(new RegExp(`<!-- readme-test: ${kind} -->\\n\`\`\`[a-z]*\\n([\\s\\S]*?)\\n\`\`\``));
  assert.ok(m, `README has no ${kind} example`);
  return m[1];
}

test("the README's JavaScript example runs and approves, then declines", { timeout: 120_000 }, async () => {
  const dir = join(root, "dist", "readme");
  mkdirSync(dir, { recursive: true });
  // The example imports ./dist/web/… from the repository root; its file
  // lives in dist/readme, so only the import specifiers move.
  const file = join(dir, "example.mjs");
  writeFileSync(file, snippet("node").replaceAll('from "./dist/web/', 'from "../web/'));
  const { stdout } = await run(process.execPath, [file], { cwd: root, timeout: 60_000 });
  const [first, second, third] = stdout.trim().split("\n");
  assert.match(first, /^done — .*refunded order 42/);
  assert.match(second, /only order 42 today/);
  // The conversation: two prompts, each a tool call, its result and an answer.
  assert.equal(third, "done — 8 messages");
});

test("the README's journal example in JavaScript: halted, found unfinished, continued with the answer", { timeout: 120_000 }, async () => {
  const dir = join(root, "dist", "readme");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "journal-example.mjs");
  writeFileSync(file, snippet("node-journal").replaceAll('from "./dist/web/', 'from "../web/'));
  const { stdout } = await run(process.execPath, [file], { cwd: root, timeout: 60_000 });
  const [first, second] = stdout.trim().split("\n");
  assert.equal(first, "pending approval");
  assert.match(second, /^done — .*refunded order 42/);
});

test("the README's agent-team example halts with the path, resumes a restored tree, and answers inline", { timeout: 120_000 }, async () => {
  const dir = join(root, "dist", "readme");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "agents-example.mjs");
  writeFileSync(file, snippet("node-agents").replaceAll('from "./dist/web/', 'from "../web/'));
  const { stdout } = await run(process.execPath, [file], { cwd: root, timeout: 60_000 });
  const lines = stdout.trim().split("\n");
  assert.equal(lines[0], "pending support › billing refund");
  assert.equal(lines[1], 'done — Billing could not refund order 42. It reported: I did not refund order 42: "already refunded".');
  assert.equal(lines[2], "done — Billing has refunded order 7. It reported: Done: refunded order 7.");
});

test("the README's decisions example: three rules decide, the record verifies, a change is named", { timeout: 120_000 }, async () => {
  const dir = join(root, "dist", "readme");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "decisions-example.mjs");
  writeFileSync(file, snippet("node-decisions").replaceAll('from "./dist/web/', 'from "../web/'));
  const { stdout } = await run(process.execPath, [file], { cwd: root, timeout: 60_000 });
  assert.deepEqual(stdout.trim().split("\n"), [
    "1 refund allowed — small refunds ",
    "2 refund approved — VIP refunds need a person Sam",
    "3 delete_account denied — no deletes from chat ",
    "true",
    "decision record: entry 2 (seq 2): its content does not match its hash: it was changed",
  ]);
});

test("the README's journal example: killed during the refund, run again, it asks and finishes", { timeout: 240_000 }, async () => {
  // A package inside this module (dist/ is ignored by git), run twice in one folder.
  const dir = join(root, "dist", "readme", "_journal"); // "_": ./... patterns (go vet, go test) leave it out
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "main.go"), snippet("go-journal"));
  const env = { ...process.env, CRASH: "1" };
  const crashed = await run("go", ["run", "."], { cwd: dir, env, timeout: 150_000 }).then(() => null, (err) => err);
  assert.ok(crashed, "the first run did not die");
  assert.match(crashed.stderr ?? "", /exit status 3/);
  const { stdout } = await run("go", ["run", "."], { cwd: dir, timeout: 150_000 });
  assert.deepEqual(stdout.trim().split("\n"), [
    'asked: refund {"order":"42"} was running when the run stopped: did it happen?',
    "done — done: refunded order 42 (checked in the ledger)",
  ]);
  // A third run finds the run ended: nothing runs, nothing is asked.
  const { stdout: again } = await run("go", ["run", "."], { cwd: dir, timeout: 150_000 });
  assert.equal(again.trim(), "done — done: refunded order 42 (checked in the ledger)");
});

test("the README's go-module lines let another module use core through a replace directive", { timeout: 240_000 }, async () => {
  // A folder holding the clone (here a link to this repository) and the new module.
  const dir = mkdtempSync(join(tmpdir(), "toolnexus-gomod-"));
  try {
    symlinkSync(root, join(dir, "toolnexus-wasm"));
    await run("bash", ["-euo", "pipefail", "-c", snippet("go-module")], { cwd: dir, timeout: 60_000 });
    const app = join(dir, "myapp");
    writeFileSync(join(app, "main.go"), snippet("go"));
    await run("go", ["mod", "tidy"], { cwd: app, timeout: 150_000 });
    const { stdout } = await run("go", ["run", "."], { cwd: app, timeout: 150_000 });
    assert.equal(stdout.trim().split("\n")[0], "pending approval map[order:42]");
    // Issue 26: our replace of tidwall/pretty reaches the new module too.
    const { stdout: pretty } = await run("go", ["list", "-m", "-f", "{{.Replace}}", "github.com/tidwall/pretty"], { cwd: app, timeout: 60_000 });
    assert.equal(pretty.trim(), "../toolnexus-wasm/internal/pretty");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the README's go-work lines: a workspace runs the Go example with go run, and our replace applies", { timeout: 240_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "toolnexus-gowork-"));
  try {
    symlinkSync(root, join(dir, "toolnexus-wasm"));
    await run("bash", ["-euo", "pipefail", "-c", snippet("go-work")], { cwd: dir, timeout: 60_000 });
    const app = join(dir, "myapp");
    writeFileSync(join(app, "main.go"), snippet("go"));
    const { stdout } = await run("go", ["run", "."], { cwd: app, timeout: 150_000 });
    assert.equal(stdout.trim().split("\n")[0], "pending approval map[order:42]");
    const { stdout: pretty } = await run("go", ["list", "-m", "-f", "{{.Replace}}", "github.com/tidwall/pretty"], { cwd: app, timeout: 60_000 });
    assert.equal(pretty.trim(), "./toolnexus-wasm/internal/pretty");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the README's Go example runs: halts pending, resumes declined", { timeout: 180_000 }, async () => {
  const dir = join(root, "dist", "_readme-go");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "main.go"), snippet("go"));
  const { stdout } = await run("go", ["run", "./dist/_readme-go"], { cwd: root, timeout: 150_000 });
  const lines = stdout.trim().split("\n");
  assert.equal(lines[0], "pending approval map[order:42]");
  assert.equal(lines[1], 'done — The tool said: tool "refund" was not run: declined: amount exceeds refund policy');
});
