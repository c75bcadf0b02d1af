// npm-package.test.mjs — the npm package as a user meets it (issue 34): the
// tarball ./build.sh packed holds the package's modules, types, wasm and
// licences and nothing else; installed into a scratch app with npm, Node
// runs the README's JavaScript example from it with only the import lines
// changed; no node: import reaches a browser bundle; and the types hold:
// a consumer of every export compiles under tsc --strict, and what the
// types promise is there at run time (npm-types.ts).
//
//   ./build.sh && cd tests && timeout 300 node --test --test-force-exit npm-package.test.mjs

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { copyFile, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { build, transform } from "esbuild";
import { specifiers, runtimeVersion } from "../scripts/npm-package.mjs";
import { DIST, readmeBlock, README, run, scratchApp, tarball, TEST_MODULES } from "./npm-app.mjs";

const T = { timeout: 120_000 };
const here = new URL(".", import.meta.url);

// What may ship, by name, and what must not, whatever the build's module
// graph pulls in: sources maps, tests, Go, the Worker, the demo page, the
// dist/web extras (brotli copies, content-hashed duplicates).
const ALLOWED = [/^package\.json$/, /^README\.md$/, /^LICENSE$/, /^THIRD-PARTY-LICENSES\.txt$/, /^[a-z0-9-]+\.mjs$/,
  /^[a-z0-9-]+\.d\.mts$/, /^toolnexus(-tools)?\.wasm$/, /^wasm_exec\.js$/, /^[a-z0-9-]+\.LICENSE\.txt$/];
const FORBIDDEN = [/\.map$/, /(^|\/)tests?\//, /\.test\./, /\.go$/, /\.br$/, /\.[0-9a-f]{10}\.wasm$/, /(^|\/)app\.wasm$/,
  /worker/i, /wrangler/, /^index\.html$/, /^demo(-team|-endpoint)?\.(mjs|css)$/, /^files-panel\.mjs$/, /^vfs-store\.mjs$/,
  /^approve-page\.mjs$/, /^examples\//, /node_modules\//, /\//];

/** tarballProblems lists what is wrong with a tarball's file list (paths without "package/"). */
export function tarballProblems(files) {
  const out = [];
  for (const f of files) {
    const bad = FORBIDDEN.find((re) => re.test(f));
    if (bad) out.push(`${f} must not ship (${bad})`);
    else if (!ALLOWED.some((re) => re.test(f))) out.push(`${f} is not a kind of file the package ships`);
  }
  for (const need of ["package.json", "README.md", "LICENSE", "toolnexus.mjs", "toolnexus.wasm", "toolnexus-tools.wasm", "wasm_exec.js"]) {
    if (!files.includes(need)) out.push(`${need} is missing`);
  }
  return out;
}

let app, files, pkg;
const unpacked = (name) => join(app.dir, "node_modules", "toolnexus-wasm", name);

before(async () => {
  const { stdout } = await run("tar", ["-tzf", tarball()]);
  files = stdout.trim().split("\n").map((f) => f.replace(/^package\//, ""));
  app = await scratchApp({ links: ["typescript", "react", "ai", "@ai-sdk/react", "@ai-sdk/provider", "@ai-sdk/provider-utils", "@ai-sdk/gateway", "@types/react", "@types/node"] });
  pkg = JSON.parse(await readFile(unpacked("package.json"), "utf8"));
});

after(async () => { await app?.close(); });

test("the file check itself: a file that should not ship is reported", () => {
  const good = ["package.json", "README.md", "LICENSE", "toolnexus.mjs", "toolnexus.d.mts", "toolnexus.wasm", "toolnexus-tools.wasm", "wasm_exec.js"];
  assert.deepEqual(tarballProblems(good), []);
  for (const bad of ["toolnexus.mjs.map", "tests/npm.test.mjs", "worker.mjs", "app.wasm", "demo.mjs", "index.html",
    "toolnexus.0123456789.wasm", "toolnexus.wasm.br", "api.go", "approve-page.mjs", "examples/index.html", "notes.txt"]) {
    assert.equal(tarballProblems([...good, bad]).length, 1, `${bad} should be reported`);
  }
});

test("the tarball ships the package's modules, types, wasm and licences, and nothing else", T, async (t) => {
  t.diagnostic(`${tarball()}: ${readFileSync(tarball()).length} bytes, ${files.length} files`);
  assert.deepEqual(tarballProblems(files), []);
  // Every module an export reaches ships, and no module ships that none reaches.
  const reached = new Set();
  const todo = [];
  const visit = (target) => {
    const name = target.replace(/^\.\//, "");
    if (!reached.has(name)) { reached.add(name); todo.push(name); }
  };
  const targets = (e) => (typeof e === "string" ? [e] : Object.values(e).flatMap(targets));
  for (const [key, entry] of Object.entries(pkg.exports)) if (key !== "./package.json") targets(entry).forEach(visit);
  while (todo.length) {
    const name = todo.pop();
    assert.ok(files.includes(name), `${name} is imported (or exported) but not in the tarball`);
    if (!/\.(mjs|js)$/.test(name)) continue;
    for (const spec of specifiers(await readFile(unpacked(name), "utf8"))) {
      if (spec.startsWith("#")) {
        assert.ok(pkg.imports?.[spec], `${name} imports ${spec}, which package.json does not map`);
        targets(pkg.imports[spec]).forEach(visit);
      } else visit(spec);
    }
  }
  const types = files.filter((f) => f.endsWith(".d.mts"));
  for (const f of files.filter((f) => /\.(mjs|js|wasm)$/.test(f))) assert.ok(reached.has(f), `${f} ships but no export reaches it`);
  for (const f of types) assert.ok(reached.has(f), `${f} ships but no export names it`);
  // One types file per entry point with code.
  for (const [key, entry] of Object.entries(pkg.exports)) {
    if (typeof entry === "object") assert.ok(entry.types && files.includes(entry.types.slice(2)), `${key} has no types`);
  }
  // The wasm builds are dist/web's, under their plain names.
  for (const w of ["toolnexus.wasm", "toolnexus-tools.wasm"]) {
    const sum = async (p) => createHash("sha256").update(await readFile(p)).digest("hex");
    assert.equal(await sum(unpacked(w)), await sum(join(DIST, "web", w)), `${w} differs from the build's`);
  }
});

test("package.json: name, the runtime's version, licence, files, side effects and conditions", T, async () => {
  assert.equal(pkg.name, "toolnexus-wasm");
  assert.equal(pkg.version, runtimeVersion(), "the version comes from jsbridge's Version");
  assert.match(README, new RegExp(`npm install \\.\\./toolnexus-wasm/dist/toolnexus-wasm-${pkg.version.replaceAll(".", "\\.")}\\.tgz`), "the README installs this version's tarball");
  assert.ok(tarball().endsWith(`toolnexus-wasm-${pkg.version}.tgz`));
  assert.equal(pkg.license, "MIT");
  assert.match(await readFile(unpacked("LICENSE"), "utf8"), /^MIT License\n/);
  assert.equal(pkg.type, "module");
  assert.deepEqual([...pkg.files].sort(), files.filter((f) => !["package.json", "README.md", "LICENSE"].includes(f)).sort());
  assert.deepEqual(pkg.sideEffects, ["./toolnexus-chat.mjs", "./wasm_exec.js"]);
  assert.deepEqual(pkg.imports["#wasm-file"], { node: "./wasm-file-node.mjs", default: "./wasm-file-browser.mjs" });
  // The side-effect-free claim holds for the modules it covers: they define
  // nothing global and touch no DOM when imported (their top level only
  // declares), checked here by importing each in Node.
  for (const name of files.filter((f) => f.endsWith(".mjs") && !pkg.sideEffects.includes(`./${f}`))) {
    if (name === "chat-element.mjs" || name === "wasm-file-node.mjs") continue; // extends HTMLElement; Node-only by condition
    const before = new Set(Object.keys(globalThis));
    await import(unpacked(name));
    assert.deepEqual(Object.keys(globalThis).filter((k) => !before.has(k)), [], `importing ${name} set globals`);
  }
});

test("no node: import reaches a browser bundle; Node's condition reads the file", T, async () => {
  const entries = Object.entries(pkg.exports).filter(([k, e]) => typeof e === "object").map(([k]) => `toolnexus-wasm${k.slice(1)}`);
  await writeFile(join(app.dir, "all.mjs"), entries.map((e, i) => `export * as e${i} from "${e}";`).join("\n"));
  const browser = await build({ entryPoints: [join(app.dir, "all.mjs")], bundle: true, format: "esm", platform: "browser", write: false,
    metafile: true, outdir: join(app.dir, "out"), splitting: true, logLevel: "silent", loader: { ".wasm": "file" } });
  const inputs = Object.keys(browser.metafile.inputs);
  assert.ok(inputs.some((f) => f.endsWith("toolnexus-wasm/wasm-file-browser.mjs")), "the browser bundle takes the browser reader");
  assert.ok(!inputs.some((f) => f.endsWith("wasm-file-node.mjs")), "the Node reader stays out of the browser bundle");
  for (const out of browser.outputFiles) assert.doesNotMatch(out.text, /["'`]node:[a-z]/, `${out.path} names a node: module`);
  const node = await build({ entryPoints: [join(app.dir, "all.mjs")], bundle: true, format: "esm", platform: "node", write: false,
    metafile: true, outdir: join(app.dir, "out"), splitting: true, logLevel: "silent", loader: { ".wasm": "file" } });
  assert.ok(Object.keys(node.metafile.inputs).some((f) => f.endsWith("toolnexus-wasm/wasm-file-node.mjs")), "Node takes the Node reader");
});

test("Node 20: the README's JavaScript example runs from the installed package, import lines changed only", T, async () => {
  const example = readmeBlock("node")
    .replace('from "./dist/web/toolnexus.mjs"', 'from "toolnexus-wasm"')
    .replace('from "./dist/web/demo-model.mjs"', 'from "toolnexus-wasm/demo-model"');
  assert.doesNotMatch(example, /dist\/web/, "only the import lines name the static bundle");
  await writeFile(join(app.dir, "example.mjs"), example);
  const { stdout } = await run(process.execPath, ["example.mjs"], { cwd: app.dir, timeout: 60_000 });
  const [first, second, third] = stdout.trim().split("\n");
  assert.match(first, /^done — .*refunded order 42/);
  assert.match(second, /only order 42 today/);
  assert.equal(third, "done — 8 messages");
  const { stdout: version } = await run(process.execPath, ["--input-type=module", "-e",
    'import { load } from "toolnexus-wasm"; console.log((await load()).version);'], { cwd: app.dir, timeout: 60_000 });
  assert.equal(version.trim(), pkg.version, "tnx.version is the package's version");
});

const TSCONFIG = {
  compilerOptions: {
    strict: true, noEmit: true, target: "es2022", module: "esnext", moduleResolution: "bundler",
    lib: ["es2022", "dom", "dom.iterable"], jsx: "react-jsx", types: ["node"], skipLibCheck: false,
  },
};

test("tsc --strict --noEmit compiles a consumer of every export (and the types are the package's)", T, async () => {
  await copyFile(new URL("npm-consumer.tsx", here), join(app.dir, "npm-consumer.tsx"));
  await copyFile(new URL("npm-types.ts", here), join(app.dir, "npm-types.ts"));
  await writeFile(join(app.dir, "tsconfig.json"), JSON.stringify({ ...TSCONFIG, files: ["npm-consumer.tsx", "npm-types.ts"] }));
  const tsc = join(TEST_MODULES, "typescript", "bin", "tsc");
  const ok = await run(process.execPath, [tsc, "-p", "tsconfig.json"], { cwd: app.dir, timeout: 120_000 }).catch((e) => e);
  assert.equal(ok.code ?? 0, 0, `tsc failed:\n${ok.stdout}${ok.stderr}`);
  // The same compiler refuses misuse, so the package's types are what it checked.
  await writeFile(join(app.dir, "misuse.ts"), [
    'import { defineTool, load } from "toolnexus-wasm";',
    'import "toolnexus-wasm/element";',
    'export const a = defineTool({ name: "x" });', // no run
    'export const b = async () => (await (await load()).createClient()).run(42);', // run needs the toolkit
    'export const c = () => { document.createElement("toolnexus-chat").demo = "yes"; };', // demo is a boolean
  ].join("\n"));
  await writeFile(join(app.dir, "tsconfig.misuse.json"), JSON.stringify({ ...TSCONFIG, files: ["misuse.ts"] }));
  const bad = await run(process.execPath, [tsc, "-p", "tsconfig.misuse.json"], { cwd: app.dir, timeout: 120_000 }).catch((e) => e);
  const lines = String(bad.stdout).split("\n").filter((l) => l.startsWith("misuse.ts("));
  assert.deepEqual(lines.map((l) => l.match(/^misuse\.ts\((\d+),/)[1]), ["3", "4", "5"], `one error per misuse:\n${bad.stdout}`);
});

test("what the types promise is there at run time (Node: every entry but the element, every API object)", T, async () => {
  const { code } = await transform(await readFile(new URL("npm-types.ts", here), "utf8"), { loader: "ts", format: "esm", target: "es2022" });
  await writeFile(join(app.dir, "npm-types.mjs"), code);
  const { stdout } = await run(process.execPath, ["--input-type=module", "-e",
    'import { checkNode } from "./npm-types.mjs"; console.log(JSON.stringify(await checkNode()));'], { cwd: app.dir, timeout: 90_000 });
  assert.deepEqual(JSON.parse(stdout.trim().split("\n").at(-1)), []);
});
