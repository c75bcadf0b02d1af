// mcp-server.mjs — a real MCP server built with the official SDK
// (@modelcontextprotocol/sdk), for the MCP tests: streamable HTTP on
// 127.0.0.1, stateful (Mcp-Session-Id), with CORS so a page may call it;
// and the same tools over the older HTTP+SSE transport (protocol
// 2024-11-05): GET /sse opens the event stream, whose "endpoint" event
// names /messages?sessionId=… for the client's POSTs.
//
//   const s = await startMcpServer();          // s.url = http://127.0.0.1:PORT/mcp
//                                              // s.sseUrl = http://127.0.0.1:PORT/sse
//   try { … } finally { await s.close(); }
//
//   node tests/mcp-server.mjs                 // prints the URL, runs until stdin closes
//
// Tools:
//   weather {city}  ⇒ structuredContent {city, tempC, sky} (and the same as text)
//   explode {}      ⇒ an error result (isError) with two text parts
//   greet {}        ⇒ asks the client for a name (elicitation, form mode) and
//                     answers "Hello, <name>!" or "No name (<action>)"
//   survey {}       ⇒ the same on the session's GET stream (the SDK's default
//                     for a request sent without relatedRequestId)
//   echo {text}     ⇒ the text back
//   delete_note {id} ⇒ "deleted note <id>" (annotated destructiveHint: true)
// weather, explode and echo are annotated readOnlyHint: true; greet and
// survey carry no annotations (so the client's default asks before them).
// s.stats counts sessions opened and closed (DELETE), notes deleted, and
// HTTP+SSE streams opened (sseOpened) and closed (sseClosed).

import { createServer } from "node:http";
import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import { z } from "zod";

function buildServer(stats) {
  const server = new McpServer({ name: "toolnexus-test-server", version: "1.0.0" });
  server.registerTool("weather", {
    description: "Current weather for a city (structured).",
    inputSchema: { city: z.string().describe("city name") },
    outputSchema: { city: z.string(), tempC: z.number(), sky: z.string() },
    annotations: { readOnlyHint: true },
  }, async ({ city }) => {
    const out = { city, tempC: 21, sky: "clear" };
    return { content: [{ type: "text", text: JSON.stringify(out) }], structuredContent: out };
  });
  server.registerTool("explode", { description: "Always fails.", annotations: { readOnlyHint: true } }, async () => ({
    content: [{ type: "text", text: "the volcano erupted" }, { type: "text", text: "try again later" }],
    isError: true,
  }));
  // The question rides the tools/call's own event stream (relatedRequestId).
  server.registerTool("greet", { description: "Greets you by the name you give when asked." }, async (extra) => {
    const r = await server.server.elicitInput({
      message: "What is your name?",
      requestedSchema: {
        type: "object",
        properties: { name: { type: "string", title: "Name", description: "how to greet you" } },
        required: ["name"],
      },
    }, { relatedRequestId: extra.requestId });
    const text = r.action === "accept" ? `Hello, ${r.content?.name}!` : `No name (${r.action})`;
    return { content: [{ type: "text", text }] };
  });
  // The common form: no relatedRequestId, so the SDK sends the question on
  // the session's standalone GET stream.
  server.registerTool("survey", { description: "Asks how you like it (on the GET stream)." }, async () => {
    const r = await server.server.elicitInput({
      message: "How do you like it?",
      requestedSchema: {
        type: "object",
        properties: {
          rating: { type: "string", enum: ["great", "fine", "bad"] },
          stars: { type: "integer", minimum: 1, maximum: 5 },
          again: { type: "boolean" },
        },
        required: ["rating"],
      },
    });
    return { content: [{ type: "text", text: `${r.action}: ${JSON.stringify(r.content ?? {})}` }] };
  });
  server.registerTool("echo", {
    description: "Echo the text.",
    inputSchema: { text: z.string() },
    annotations: { readOnlyHint: true },
  }, async ({ text }) => ({ content: [{ type: "text", text }] }));
  server.registerTool("delete_note", {
    description: "Delete a note for good.",
    inputSchema: { id: z.string() },
    annotations: { destructiveHint: true },
  }, async ({ id }) => {
    stats.deleted++;
    return { content: [{ type: "text", text: `deleted note ${id}` }] };
  });
  return server;
}

function cors(res) {
  res.setHeader("Access-Control-Allow-Origin", "*");
  res.setHeader("Access-Control-Allow-Methods", "GET, POST, DELETE, OPTIONS");
  res.setHeader("Access-Control-Allow-Headers", "*");
  res.setHeader("Access-Control-Expose-Headers", "Mcp-Session-Id");
}

/** Start the server; resolves to {url, stats, close()}. */
export async function startMcpServer({ host = "127.0.0.1", port = 0 } = {}) {
  const sessions = new Map(); // session id ⇒ transport
  const legacy = new Map(); // HTTP+SSE session id ⇒ SSEServerTransport
  const stats = { opened: 0, closed: 0, deleted: 0, sseOpened: 0, sseClosed: 0 };
  const http = createServer(async (req, res) => {
    try {
      cors(res);
      if (req.method === "OPTIONS") { res.writeHead(204).end(); return; }
      const url = new URL(req.url, "http://x");
      if (url.pathname === "/sse" && req.method === "GET") {
        const transport = new SSEServerTransport("/messages", res);
        legacy.set(transport.sessionId, transport);
        stats.sseOpened++;
        res.on("close", () => { legacy.delete(transport.sessionId); stats.sseClosed++; });
        await buildServer(stats).connect(transport);
        return;
      }
      if (url.pathname === "/messages" && req.method === "POST") {
        const transport = legacy.get(url.searchParams.get("sessionId"));
        if (!transport) { res.writeHead(404).end("no such session"); return; }
        await transport.handlePostMessage(req, res);
        return;
      }
      if (url.pathname !== "/mcp") { res.writeHead(404).end("not found"); return; }
      const sid = req.headers["mcp-session-id"];
      let transport = typeof sid === "string" ? sessions.get(sid) : undefined;
      if (!transport) {
        if (sid || req.method !== "POST") {
          res.writeHead(sid ? 404 : 400, { "content-type": "application/json" })
            .end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32000, message: "no such session" } }));
          return;
        }
        transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (id) => { sessions.set(id, transport); stats.opened++; },
          onsessionclosed: (id) => { sessions.delete(id); stats.closed++; },
        });
        await buildServer(stats).connect(transport);
      }
      await transport.handleRequest(req, res);
    } catch (err) {
      if (!res.headersSent) res.writeHead(500).end(String(err?.message ?? err));
    }
  });
  await new Promise((resolve, reject) => {
    http.once("error", reject);
    http.listen(port, host, resolve);
  });
  const url = `http://${host}:${http.address().port}/mcp`;
  return {
    url,
    sseUrl: url.replace(/\/mcp$/, "/sse"),
    stats,
    async close() {
      for (const t of sessions.values()) await t.close().catch(() => {});
      for (const t of legacy.values()) await t.close().catch(() => {});
      http.closeAllConnections?.();
      await new Promise((resolve) => http.close(() => resolve()));
    },
  };
}

// As a program: print the URL, stop when stdin closes (the parent went away)
// or on SIGTERM/SIGINT.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const s = await startMcpServer();
  process.stdout.write(s.url + "\n");
  const stop = async () => { await s.close(); process.exit(0); };
  process.stdin.on("end", stop).on("close", stop).resume();
  process.on("SIGTERM", stop).on("SIGINT", stop);
}
