// npm-app.mjs — a scratch app with the npm package installed from the
// tarball ./build.sh packed, as a user would (`npm install <tarball>`), for
// tests/npm-package.test.mjs and tests/npm-bundlers.test.mjs.
//
// The app's other packages (React, the AI SDK, the bundlers, TypeScript) are
// the ones pinned in tests/package.json: after the install each is linked
// in by name, and npm never runs in the app again. (Linked before an
// install, npm would prune them as extraneous, through the links, from
// tests/node_modules itself.)

import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

export const run = promisify(execFile);
const here = fileURLToPath(new URL(".", import.meta.url));
export const ROOT = join(here, "..");
export const DIST = process.env.TOOLNEXUS_DIST ?? join(ROOT, "dist");
export const TEST_MODULES = join(here, "node_modules");

/** The README as written. */
export const README = readFileSync(join(ROOT, "README.md"), "utf8");

/** readmeBlock returns the fenced block after `<!-- readme-test: kind -->` in the README. */
export function readmeBlock(kind) {
  const m = README.match(new RegExp(`<!-- readme-test: ${kind} -->\\n\`\`\`[a-z]*\\n([\\s\\S]*?)\\n\`\`\``));
  if (!m) throw new Error(`README.md has no readme-test ${kind} block`);
  return m[1];
}

/** The tarball ./build.sh packed into DIST (exactly one). */
export function tarball() {
  const found = existsSync(DIST) ? readdirSync(DIST).filter((f) => /^toolnexus-wasm-.*\.tgz$/.test(f)) : [];
  if (found.length !== 1) throw new Error(`expected one toolnexus-wasm-*.tgz in ${DIST}, found ${found.length}: run ./build.sh first`);
  return join(DIST, found[0]);
}

/**
 * scratchApp makes a folder with a package.json, installs the tarball with
 * npm (offline: the package has no dependencies), then links in the pinned
 * packages named in links (and bins, as node_modules/.bin entries).
 * @returns {Promise<{dir: string, close(): Promise<void>}>}
 */
export async function scratchApp({ links = [], bins = {} } = {}) {
  const dir = await mkdtemp(join(tmpdir(), "toolnexus-npm-app-"));
  try {
    await writeFile(join(dir, "package.json"), `${JSON.stringify({ name: "shop", private: true, type: "module" }, null, 2)}\n`);
    await run("npm", ["install", "--offline", "--no-audit", "--no-fund", "--loglevel=error", tarball()], { cwd: dir, timeout: 120_000 });
    for (const name of links) {
      const from = join(TEST_MODULES, name);
      if (!existsSync(from)) throw new Error(`tests/node_modules has no ${name}: run npm ci in tests/`);
      await mkdir(dirname(join(dir, "node_modules", name)), { recursive: true });
      await symlink(from, join(dir, "node_modules", name));
    }
    await mkdir(join(dir, "node_modules", ".bin"), { recursive: true });
    for (const [bin, target] of Object.entries(bins)) await symlink(join(TEST_MODULES, target), join(dir, "node_modules", ".bin", bin));
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
  return { dir, close: () => rm(dir, { recursive: true, force: true }) };
}
