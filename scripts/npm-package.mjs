// npm-package.mjs — writes dist/npm, the npm package `toolnexus-wasm`
// (issue 34), and packs it into a tarball beside it.
//
//   node scripts/npm-package.mjs WEB NPM    (WEB = dist/web, already built; NPM = dist/npm)
//
// The package is the web/ modules that its exports reach (followed import by
// import, so a module the element starts to import ships with it, and the
// demo page's modules do not), web/npm/'s own files (package.json, the
// .d.mts types, README.md, the "#wasm-file" modules) and, from WEB, what the
// build generates: wasm_exec.js, lean-qr.mjs and the two wasm files under
// their plain names (a bundler hashes them itself). A module in web/npm
// stands in for the web/ one of the same name. The version is jsbridge's
// Version, the one tnx.version reports: the only place it is written.
// It prints the tarball's size and its files.

import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const SRC = join(ROOT, "web");
const OWN = join(SRC, "npm");

/** The runtime's version: the Version constant in jsbridge/api.go. */
export function runtimeVersion() {
  const m = readFileSync(join(ROOT, "jsbridge", "api.go"), "utf8").match(/^const Version = "([^"]+)"$/m);
  if (!m) throw new Error("npm-package: jsbridge/api.go has no `const Version = \"…\"`");
  return m[1];
}

// Relative specifiers a module loads: static and dynamic imports, re-exports,
// and assets named by new URL("./x", import.meta.url). Comment lines are
// skipped (the modules' header comments show imports as examples).
const SPECIFIERS = [
  /\bimport\s*\(\s*["'](\.\/[^"']+|#[^"']+)["']\s*\)/g,
  /\b(?:import|export)\b[^;"'()]*?\bfrom\s*["'](\.\/[^"']+|#[^"']+)["']/g,
  /\bimport\s*["'](\.\/[^"']+|#[^"']+)["']/g,
  /\bnew URL\(\s*["'](\.\/[^"']+)["']\s*,\s*import\.meta\.url\s*\)/g,
];

export function specifiers(text) {
  const code = text.split("\n").filter((l) => !/^\s*(\/\/|\*|\/\*)/.test(l)).join("\n");
  const out = new Set();
  for (const re of SPECIFIERS) for (const m of code.matchAll(re)) out.add(m[1]);
  return [...out];
}

// source finds a package file: web/npm's own, else web/'s, else the build's.
function source(name, web) {
  for (const dir of [OWN, SRC, web]) {
    const p = join(dir, name);
    if (existsSync(p)) return p;
  }
  throw new Error(`npm-package: ${name} is imported but is neither in web/npm, web/ nor ${web}`);
}

/**
 * packageFiles walks the module graph from the template's exports and
 * imports and returns {name: source path} for every file the package ships.
 */
export function packageFiles(template, web) {
  const files = new Map();
  const todo = [];
  const add = (name) => {
    const clean = name.replace(/^\.\//, "");
    if (clean.includes("/")) throw new Error(`npm-package: ${name}: the package is one flat folder`);
    if (!files.has(clean)) {
      files.set(clean, source(clean, web));
      todo.push(clean);
    }
  };
  const targets = (entry) => (typeof entry === "string" ? [entry] : Object.values(entry).flatMap(targets));
  for (const [key, entry] of Object.entries(template.exports)) {
    if (key === "./package.json") continue;
    for (const t of targets(entry)) add(t);
  }
  for (const entry of Object.values(template.imports ?? {})) for (const t of targets(entry)) add(t);
  while (todo.length) {
    const name = todo.pop();
    if (!/\.(mjs|js)$/.test(name)) continue;
    for (const spec of specifiers(readFileSync(files.get(name), "utf8"))) {
      if (spec.startsWith("#")) {
        if (!template.imports?.[spec]) throw new Error(`npm-package: ${name} imports ${spec}, which package.json's imports does not map`);
        continue; // its targets were added above
      }
      add(spec);
    }
  }
  // A third-party module ships with its licence (lean-qr.mjs: lean-qr.LICENSE.txt).
  for (const name of [...files.keys()]) {
    const licence = name.replace(/\.m?js$/, ".LICENSE.txt");
    if (licence !== name && existsSync(join(web, licence))) files.set(licence, join(web, licence));
  }
  return files;
}

// thirdPartyLicences is the notice for what the wasm and wasm_exec.js are
// made of besides our code: Go's runtime and standard library, gjson, match.
function thirdPartyLicences() {
  const goroot = execFileSync("go", ["env", "GOROOT"], { encoding: "utf8" }).trim();
  const parts = [["Go (the runtime and standard library compiled into the .wasm files, and wasm_exec.js)", join(goroot, "LICENSE")]];
  for (const mod of ["github.com/tidwall/gjson", "github.com/tidwall/match"]) {
    const dir = execFileSync("go", ["list", "-m", "-f", "{{.Dir}}", mod], { cwd: ROOT, encoding: "utf8" }).trim();
    parts.push([`${mod} (compiled into the .wasm files)`, join(dir, "LICENSE")]);
  }
  return parts.map(([what, file]) => `${what}\n${"=".repeat(what.length)}\n\n${readFileSync(file, "utf8").trim()}\n`).join("\n\n");
}

export function writePackage(web, out) {
  const template = JSON.parse(readFileSync(join(OWN, "package.json"), "utf8"));
  const files = packageFiles(template, web);
  for (const entry of Object.values(template.exports)) {
    const types = typeof entry === "object" ? entry.types : null;
    if (types && !existsSync(join(OWN, types))) throw new Error(`npm-package: no ${types} in web/npm for an export`);
    if (types) files.set(types.slice(2), join(OWN, types));
  }
  files.set("README.md", join(OWN, "README.md"));
  files.set("LICENSE", join(ROOT, "LICENSE"));
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  for (const [name, from] of files) copyFileSync(from, join(out, name));
  writeFileSync(join(out, "THIRD-PARTY-LICENSES.txt"), thirdPartyLicences());
  files.set("THIRD-PARTY-LICENSES.txt", null);
  const pkg = { ...template, version: runtimeVersion() };
  // files lists exactly what was copied: nothing else in the folder can ship.
  pkg.files = [...files.keys()].filter((n) => !["README.md", "LICENSE"].includes(n)).sort();
  writeFileSync(join(out, "package.json"), `${JSON.stringify(pkg, null, 2)}\n`);
  return pkg;
}

/** pack runs npm pack in dir, writing the tarball into dest; npm's report of it. */
export function pack(dir, dest) {
  for (const f of readdirSync(dest)) if (/^toolnexus-wasm-.*\.tgz$/.test(f)) rmSync(join(dest, f)); // an older build's
  const json = execFileSync("npm", ["pack", "--json", "--pack-destination", dest, "--loglevel=error"], { cwd: dir, encoding: "utf8" });
  return JSON.parse(json)[0];
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [web, out] = process.argv.slice(2);
  if (!web || !out) {
    console.error("usage: node scripts/npm-package.mjs WEB NPM");
    process.exit(2);
  }
  const pkg = writePackage(resolve(web), resolve(out));
  const report = pack(resolve(out), dirname(resolve(out)));
  const mb = (n) => `${(n / 1e6).toFixed(2)} MB`;
  console.log(`   ${pkg.name}@${pkg.version}: ${join(dirname(resolve(out)), report.filename)}: ${mb(report.size)} packed, ${mb(report.unpackedSize)} unpacked, ${report.files.length} files`);
  for (const f of report.files.sort((a, b) => a.path.localeCompare(b.path))) console.log(`     ${String(f.size).padStart(9)}  ${f.path}`);
}
