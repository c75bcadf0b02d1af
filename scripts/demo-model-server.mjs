// demo-model-server.mjs — the browser demo's offline model (web/demo-model.mjs)
// served over HTTP in the OpenAI chat-completions wire format, for
// `./build.sh worker-dev`: the local Worker then answers the same prompts the
// same way as the demo page and <toolnexus-chat demo>.
//
//   node scripts/demo-model-server.mjs [port=0]   prints its base URL (…/v1), serves until killed
//   import { startDemoModel } from "../scripts/demo-model-server.mjs";
//
// A streamed reply is written one event at a time, a few ms apart, as a real
// provider's would be. It binds 127.0.0.1 only.

import { createServer } from "node:http";
import { demoModel } from "../web/demo-model.mjs";

const EVENT_GAP_MS = 15;

export function startDemoModel({ port = 0, host = "127.0.0.1", gapMs = EVENT_GAP_MS } = {}) {
  const model = demoModel();
  const server = createServer(async (req, res) => {
    try {
      const path = new URL(req.url, "http://x").pathname;
      if (req.method === "GET" && path.endsWith("/models")) {
        return send(res, 200, "application/json", JSON.stringify({ object: "list", data: [{ id: model.model, object: "model", created: 0, owned_by: "toolnexus" }] }));
      }
      let body = "";
      for await (const chunk of req) body += chunk;
      const reply = await model.fetch(`${model.baseURL}${path.replace(/^\/v1/, "")}`, { method: req.method, body });
      const type = reply.headers.get("content-type") ?? "application/json";
      if (!type.startsWith("text/event-stream")) return send(res, reply.status, type, await reply.text());
      res.writeHead(reply.status, { "content-type": type, "cache-control": "no-store" });
      for (const event of (await reply.text()).split(/(?<=\n\n)/)) {
        res.write(event);
        await new Promise((r) => setTimeout(r, gapMs));
      }
      res.end();
    } catch (err) {
      send(res, 500, "application/json", JSON.stringify({ error: { message: `demo model: ${err.message}` } }));
    }
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      const { port: p } = server.address();
      resolve({
        url: `http://${host}:${p}/v1`,
        model: model.model,
        close: () => new Promise((ok) => { server.closeAllConnections?.(); server.close(() => ok()); }),
      });
    });
  });
}

function send(res, status, type, text) {
  res.writeHead(status, { "content-type": type });
  res.end(text);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const s = await startDemoModel({ port: Number(process.argv[2] ?? 0) });
  console.log(s.url);
  const stop = async () => { await s.close(); process.exit(0); };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}
