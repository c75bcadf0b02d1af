// ai-sdk-worker.mjs — the benchmark's AI SDK Worker: the same one-tool-turn run
// as the Go Worker's POST /v1/run, done with the Vercel AI SDK (generateText with
// one tool over @ai-sdk/openai-compatible), for the side-by-side CPU per request
// (bench/worker.mjs) and memory over many requests (bench/worker-memory.mjs).
// bench/worker.mjs bundles it with esbuild (buildAiSdkWorker) into a Worker
// folder; LLM_BASE_URL, LLM_MODEL and LLM_API_KEY are its bindings.
//
//   GET  /healthz  {"status":"ok"}
//   GET  /v1/tools {"tools": [{name, description, inputSchema}]}
//   POST /v1/run   {"prompt"} ⇒ {"text"}
//   POST /v1/run   {"prompt", "stream": true} ⇒ server-sent events (streamText):
//                  {"type":"text","delta"} per text delta, then {"type":"done","text"}

import { asSchema, generateText, stepCountIs, streamText, tool } from "ai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { z } from "zod";

const add = tool({
  description: "Add two numbers.",
  inputSchema: z.object({ a: z.number(), b: z.number() }),
  execute: async ({ a, b }) => String(a + b),
});

const sse = (event) => `data: ${JSON.stringify(event)}\n\n`;

export default {
  async fetch(request, env) {
    const { pathname } = new URL(request.url);
    if (pathname === "/healthz") return Response.json({ status: "ok" });
    if (pathname === "/v1/tools") {
      return Response.json({ tools: [{ name: "add", description: add.description, inputSchema: await asSchema(add.inputSchema).jsonSchema }] });
    }
    if (pathname !== "/v1/run" || request.method !== "POST") return new Response("not found", { status: 404 });
    const { prompt, stream } = await request.json();
    const provider = createOpenAICompatible({ name: "bench", baseURL: env.LLM_BASE_URL, apiKey: env.LLM_API_KEY });
    const options = { model: provider.chatModel(env.LLM_MODEL), prompt, tools: { add }, stopWhen: stepCountIs(5), maxRetries: 0 };
    if (!stream) {
      const result = await generateText(options);
      return Response.json({ text: result.text });
    }
    const result = streamText(options);
    const enc = new TextEncoder();
    const body = new ReadableStream({
      async start(c) {
        try {
          for await (const delta of result.textStream) c.enqueue(enc.encode(sse({ type: "text", delta })));
          c.enqueue(enc.encode(sse({ type: "done", text: await result.text })));
        } catch (err) {
          c.enqueue(enc.encode(sse({ type: "error", message: String(err?.message ?? err) })));
        }
        c.close();
      },
    });
    return new Response(body, { headers: { "content-type": "text/event-stream", "cache-control": "no-cache" } });
  },
};
