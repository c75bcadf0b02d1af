// wrangler-lock.mjs — what `./build.sh worker-dev` installs when the test
// packages are not: wrangler alone, at the versions tests/package-lock.json
// pins. It writes DIR/package.json and DIR/package-lock.json holding wrangler
// and the packages it depends on (about 35 installed on one platform, against
// the test suite's ~160), taken unchanged from the tests' lock file, so
// `npm ci` in DIR installs exactly those (issue 33: worker-dev installed the
// whole test toolchain without saying why).
//
//   node scripts/wrangler-lock.mjs tests/package-lock.json DIR
//
// A file is rewritten only when its content changes, so npm's own stamp
// (DIR/node_modules/.package-lock.json) tells whether to install again.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** wranglerLock returns {manifest, lock}: the subset of lock that wrangler needs. */
export function wranglerLock(lock) {
  const pkgs = lock.packages ?? {};
  const top = pkgs["node_modules/wrangler"];
  if (!top) throw new Error("wrangler-lock: the lock file has no node_modules/wrangler");
  // resolve finds the package a dependency of `from` loads, as Node does:
  // from's own node_modules, then each enclosing one up to the top.
  const resolve = (from, name) => {
    for (let base = from; ; base = base.slice(0, Math.max(0, base.lastIndexOf("/node_modules/")))) {
      const path = base ? `${base}/node_modules/${name}` : `node_modules/${name}`;
      if (pkgs[path]) return path;
      if (!base) return null;
    }
  };
  const seen = new Set();
  const stack = ["node_modules/wrangler"];
  while (stack.length) {
    const path = stack.pop();
    if (seen.has(path)) continue;
    seen.add(path);
    const p = pkgs[path];
    for (const name of Object.keys({ ...p.dependencies, ...p.optionalDependencies, ...p.peerDependencies })) {
      const dep = resolve(path, name);
      if (dep) stack.push(dep);
    }
  }
  const manifest = { name: "toolnexus-wasm-wrangler", private: true, devDependencies: { wrangler: top.version } };
  const packages = { "": { name: manifest.name, devDependencies: manifest.devDependencies } };
  for (const path of [...seen].sort()) packages[path] = pkgs[path];
  return { manifest, lock: { name: manifest.name, lockfileVersion: lock.lockfileVersion, requires: true, packages } };
}

function writeIfChanged(path, text) {
  if (existsSync(path) && readFileSync(path, "utf8") === text) return false;
  writeFileSync(path, text);
  return true;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [lockPath, dir] = process.argv.slice(2);
  if (!lockPath || !dir) {
    console.error("usage: node scripts/wrangler-lock.mjs tests/package-lock.json DIR");
    process.exit(2);
  }
  const { manifest, lock } = wranglerLock(JSON.parse(readFileSync(lockPath, "utf8")));
  mkdirSync(dir, { recursive: true });
  writeIfChanged(join(dir, "package.json"), JSON.stringify(manifest, null, 2) + "\n");
  writeIfChanged(join(dir, "package-lock.json"), JSON.stringify(lock, null, 2) + "\n");
}
