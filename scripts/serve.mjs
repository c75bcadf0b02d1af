// serve.mjs — a tiny static file server for the demo and the browser tests.
//
//   node scripts/serve.mjs [dir=dist/web] [port=8080]      (CLI; PORT env also works)
//   import { serve } from "../scripts/serve.mjs";
//   const s = await serve({ root, port: 0 }); … s.url … await s.close();
//
// It binds 127.0.0.1 only and sends the MIME types wasm streaming needs.
// Caching, as the README's hosting advice says:
// - a content-hashed name (toolnexus.<hex>.wasm, scripts/wasm-hash.mjs) is
//   `public, max-age=31536000, immutable`: a new build gets a new name, so a
//   returning visitor neither downloads nor revalidates it, and Chromium
//   reuses the code it compiled from it;
// - everything else is `no-cache` with an ETag: reused after a 304.
// A file with a NAME.br beside it is sent brotli-compressed
// (Content-Encoding: br) to a client that accepts br.

import { createServer } from "node:http";
import { readFile, stat } from "node:fs/promises";
import { extname, join, normalize, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".wasm": "application/wasm",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".txt": "text/plain; charset=utf-8",
};

const HASHED = /\.[0-9a-f]{10,}\.[a-z0-9]+$/;

// onRequest(req), if given, sees every request (tests count what a visit fetches).
export function serve({ root, port = 0, host = "127.0.0.1", onRequest } = {}) {
  const base = resolve(root);
  const server = createServer(async (req, res) => {
    onRequest?.(req);
    try {
      const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
      let file = normalize(join(base, path));
      // Refuse anything that escapes the served folder.
      if (file !== base && !file.startsWith(base + sep)) return send(res, 403, "forbidden");
      if ((await stat(file).catch(() => null))?.isDirectory()) file = join(file, "index.html");
      const info = await stat(file).catch(() => null);
      if (!info?.isFile()) return send(res, 404, "not found");
      const headers = {
        "content-type": TYPES[extname(file)] ?? "application/octet-stream",
        "cache-control": HASHED.test(file) ? "public, max-age=31536000, immutable" : "no-cache",
        "x-content-type-options": "nosniff",
      };
      let served = file, tag = `${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}`;
      const br = await stat(`${file}.br`).catch(() => null);
      if (br?.isFile()) {
        headers.vary = "accept-encoding";
        if (acceptsBrotli(req.headers["accept-encoding"])) {
          served = `${file}.br`;
          headers["content-encoding"] = "br";
          tag += "-br";
        }
      }
      headers.etag = `W/"${tag}"`;
      if (req.headers["if-none-match"] === headers.etag) {
        res.writeHead(304, headers);
        return res.end();
      }
      const body = await readFile(served).catch(() => null);
      if (!body) return send(res, 404, "not found");
      headers["content-length"] = body.length;
      res.writeHead(200, headers);
      res.end(req.method === "HEAD" ? undefined : body);
    } catch {
      send(res, 400, "bad request");
    }
  });
  return new Promise((ok, fail) => {
    server.once("error", fail);
    server.listen(port, host, () => {
      const { port: bound } = server.address();
      ok({
        port: bound,
        url: `http://${host}:${bound}/`,
        close: () => new Promise((done) => { server.closeAllConnections?.(); server.close(() => done()); }),
      });
    });
  });
}

// acceptsBrotli reads Accept-Encoding: br listed, and not with q=0.
function acceptsBrotli(header = "") {
  return String(header).split(",").some((part) => {
    const [coding, ...params] = part.trim().split(";").map((x) => x.trim());
    return coding === "br" && !params.some((p) => /^q=0(\.0*)?$/.test(p));
  });
}

function send(res, status, text) {
  res.writeHead(status, { "content-type": "text/plain; charset=utf-8" });
  res.end(text);
}

// CLI entry: serve until interrupted.
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = process.argv[2] ?? "dist/web";
  const port = Number(process.argv[3] ?? process.env.PORT ?? 8080);
  const s = await serve({ root, port });
  console.log(`serving ${resolve(root)} on ${s.url} (Ctrl-C to stop)`);
}
