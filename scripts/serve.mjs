// serve.mjs — a tiny static file server for the demo and the browser tests.
//
//   node scripts/serve.mjs [dir=dist/web] [port=8080]      (CLI; PORT env also works)
//   import { serve } from "../scripts/serve.mjs";
//   const s = await serve({ root, port: 0 }); … s.url … await s.close();
//
// It binds 127.0.0.1 only and sends the MIME types wasm streaming needs.
// Responses are no-store unless cache is true (the start-up benchmark's
// repeat visit: cacheable for an hour, so the browser may reuse its
// compiled wasm).

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

export function serve({ root, port = 0, host = "127.0.0.1", cache = false } = {}) {
  const base = resolve(root);
  const server = createServer(async (req, res) => {
    try {
      const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
      let file = normalize(join(base, path));
      // Refuse anything that escapes the served folder.
      if (file !== base && !file.startsWith(base + sep)) return send(res, 403, "forbidden");
      if ((await stat(file).catch(() => null))?.isDirectory()) file = join(file, "index.html");
      const body = await readFile(file).catch(() => null);
      if (!body) return send(res, 404, "not found");
      res.writeHead(200, {
        "content-type": TYPES[extname(file)] ?? "application/octet-stream",
        "content-length": body.length,
        "cache-control": cache ? "public, max-age=3600" : "no-store",
        "x-content-type-options": "nosniff",
      });
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
