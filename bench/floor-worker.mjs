// floor-worker.mjs — the benchmark's floor Worker: the one-tool-turn run of
// POST /v1/run written by hand over fetch (no library, no checks), and GET
// /healthz. What workerd, Miniflare's entry worker and the two model calls
// cost on this machine, below which no Worker can go (bench/worker.mjs).

const TOOLS = [{
  type: "function",
  function: {
    name: "add", description: "Add two numbers.",
    parameters: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
  },
}];

export default {
  async fetch(request, env) {
    const { pathname } = new URL(request.url);
    if (pathname === "/healthz") return Response.json({ status: "ok" });
    if (pathname !== "/v1/run" || request.method !== "POST") return new Response("not found", { status: 404 });
    const { prompt } = await request.json();
    const messages = [{ role: "user", content: prompt }];
    for (let turn = 0; turn < 5; turn++) {
      const res = await fetch(`${env.LLM_BASE_URL}/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${env.LLM_API_KEY}` },
        body: JSON.stringify({ model: env.LLM_MODEL, messages, tools: TOOLS }),
      });
      const msg = (await res.json()).choices[0].message;
      messages.push(msg);
      if (!msg.tool_calls?.length) return Response.json({ text: msg.content });
      for (const call of msg.tool_calls) {
        const { a, b } = JSON.parse(call.function.arguments);
        messages.push({ role: "tool", tool_call_id: call.id, content: String(a + b) });
      }
    }
    return Response.json({ error: "too many turns" }, { status: 500 });
  },
};
