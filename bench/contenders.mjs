// contenders.mjs — the same tool loop written against each library. Each
// setup({fetch, history, onTool}) resolves to runOnce() → Promise<final text>;
// onTool() is called once per execution of `add`. Limits are set above 10
// model calls so that no contender is cut short: the loop must end because
// turn 10 answers without a tool call.

import { PROMPT, TOOL_SCHEMA } from "./fake-model.mjs";

const BASE_URL = "http://model.invalid/v1"; // never reached: every request goes to the fake fetch
const MODEL = "fake-model";
const add = ({ a, b }) => String(a + b);

// aiSdk is the AI SDK's loop; ai and compatible import its two packages (a
// function each, so that a bundler sees the module names).
async function aiSdk({ fetch, history, onTool }, ai, compatible) {
  const { generateText, stepCountIs, tool } = await ai();
  const { createOpenAICompatible } = await compatible();
  const { z } = await import("zod");
  const provider = createOpenAICompatible({ name: "fake", baseURL: BASE_URL, apiKey: "bench-key", fetch });
  const model = provider.chatModel(MODEL);
  const tools = {
    add: tool({
      description: "add two numbers",
      inputSchema: z.object({ a: z.number(), b: z.number() }),
      execute: async (args) => { onTool(); return add(args); },
    }),
  };
  const messages = [...history, { role: "user", content: PROMPT }];
  return async () => (await generateText({ model, tools, messages, stopWhen: stepCountIs(20), maxRetries: 0 })).text;
}

export const contenders = {
  // This runtime: web/toolnexus.mjs over the browser wasm (dist/web).
  async ours({ fetch, history, onTool, dist }) {
    const { load, defineTool } = await import(new URL("web/toolnexus.mjs", dist).href);
    const tnx = await load({ wasm: new URL("web/toolnexus.wasm", dist) });
    const toolkit = await tnx.createToolkit({
      tools: [defineTool({ name: "add", description: "add two numbers", inputSchema: TOOL_SCHEMA, run: (args) => { onTool(); return add(args); } })],
    });
    const client = await tnx.createClient({ baseURL: BASE_URL, model: MODEL, apiKey: "bench-key", maxTurns: 20, fetch });
    const opts = history.length ? { history } : undefined;
    return async () => (await client.run(PROMPT, toolkit, opts)).text;
  },

  // Vercel AI SDK: generateText + stopWhen over @ai-sdk/openai-compatible,
  // the newest release that runs on Node 20 (ai 7) and the one the tests use
  // (ai 6, installed as ai6; bench/package.json).
  "ai-sdk": (o) => aiSdk(o, () => import("ai"), () => import("@ai-sdk/openai-compatible")),
  "ai-sdk-6": (o) => aiSdk(o, () => import("ai6"), () => import("@ai-sdk/openai-compatible-2")),

  // OpenAI Agents SDK: run() with a chat-completions model over an OpenAI client with our fetch.
  async agents({ fetch, history, onTool }) {
    const { Agent, run, tool, user, assistant, setTracingDisabled, OpenAIChatCompletionsModel } = await import("@openai/agents");
    const { default: OpenAI } = await import("openai");
    const { z } = await import("zod");
    setTracingDisabled(true);
    const client = new OpenAI({ apiKey: "bench-key", baseURL: BASE_URL, fetch, maxRetries: 0 });
    const agent = new Agent({
      name: "bench",
      instructions: "",
      model: new OpenAIChatCompletionsModel(client, MODEL),
      tools: [tool({
        name: "add",
        description: "add two numbers",
        parameters: z.object({ a: z.number(), b: z.number() }),
        execute: async (args) => { onTool(); return add(args); },
      })],
    });
    const input = [...history.map((m) => (m.role === "user" ? user(m.content) : assistant(m.content))), user(PROMPT)];
    return async () => (await run(agent, input, { maxTurns: 20 })).finalOutput;
  },

  // The floor: a hand-written loop straight over fetch.
  async floor({ fetch, history, onTool }) {
    const tools = [{ type: "function", function: { name: "add", description: "add two numbers", parameters: TOOL_SCHEMA } }];
    const fns = { add: (args) => { onTool(); return add(args); } };
    return async () => {
      const messages = [...history, { role: "user", content: PROMPT }];
      for (let turn = 0; turn < 20; turn++) {
        const res = await fetch(`${BASE_URL}/chat/completions`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: "Bearer bench-key" },
          body: JSON.stringify({ model: MODEL, messages, tools }),
        });
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        const msg = (await res.json()).choices[0].message;
        messages.push(msg);
        if (!msg.tool_calls?.length) return msg.content;
        for (const call of msg.tool_calls) {
          const output = await fns[call.function.name](JSON.parse(call.function.arguments));
          messages.push({ role: "tool", tool_call_id: call.id, content: output });
        }
      }
      throw new Error("too many turns");
    };
  },
};
