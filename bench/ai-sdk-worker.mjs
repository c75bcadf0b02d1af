// ai-sdk-worker.mjs — the benchmark's AI SDK Worker: the same one-tool-turn run
// as the Go Worker's POST /v1/run, done with the Vercel AI SDK (generateText with
// one tool over @ai-sdk/openai-compatible), for the side-by-side CPU per request.
// bench/worker.mjs bundles it with esbuild (buildAiSdkWorker) into a Worker
// folder; LLM_BASE_URL, LLM_MODEL and LLM_API_KEY are its bindings.
//
//   GET  /healthz  {"status":"ok"}
//   POST /v1/run   {"prompt"} ⇒ {"text"}

import { generateText, stepCountIs, tool } from "ai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { z } from "zod";

const add = tool({
  description: "Add two numbers.",
  inputSchema: z.object({ a: z.number(), b: z.number() }),
  execute: async ({ a, b }) => String(a + b),
});

export default {
  async fetch(request, env) {
    const { pathname } = new URL(request.url);
    if (pathname === "/healthz") return Response.json({ status: "ok" });
    if (pathname !== "/v1/run" || request.method !== "POST") return new Response("not found", { status: 404 });
    const { prompt } = await request.json();
    const provider = createOpenAICompatible({ name: "bench", baseURL: env.LLM_BASE_URL, apiKey: env.LLM_API_KEY });
    const result = await generateText({
      model: provider.chatModel(env.LLM_MODEL), prompt, tools: { add }, stopWhen: stepCountIs(5), maxRetries: 0,
    });
    return Response.json({ text: result.text });
  },
};
