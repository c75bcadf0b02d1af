// tools-build.mjs — loading the tools build of the wasm (toolnexus-tools.wasm:
// built-ins, skills and agents) into Node, as the suites that need it do.

import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = fileURLToPath(new URL(".", import.meta.url));

// WEB is the built web folder: TOOLNEXUS_WEB, else TOOLNEXUS_DIST/web, else ../dist/web.
export const WEB = process.env.TOOLNEXUS_WEB ?? join(process.env.TOOLNEXUS_DIST ?? join(here, "..", "dist"), "web");

// loadToolsBuild imports toolnexus.mjs from WEB and loads the tools wasm.
export async function loadToolsBuild() {
  assert.ok(existsSync(join(WEB, "toolnexus-tools.wasm")), `no tools build in ${WEB}: run ./build.sh first`);
  const mod = await import(pathToFileURL(join(WEB, "toolnexus.mjs")).href);
  return mod.load({ wasm: join(WEB, "toolnexus-tools.wasm") });
}
