// aisdk-page.mjs — a small chat page built on @ai-sdk/react's useChat, as an AI
// SDK front-end would write it; aisdk-browser.test.mjs bundles it with esbuild
// (React and the AI SDK inside; ./toolnexus.mjs and ./demo-model.mjs stay
// external, loaded from the site) and opens it in Chromium. The query string
// picks the transport:
//   ?mode=worker&api=<…/v1/ui>&token=<API_TOKEN>   DefaultChatTransport to the Worker
//   ?mode=tab                                       toolnexus.mjs's chatTransport, offline demo model
// Model text is rendered as text (React escapes it), never as HTML.

import { createElement as h, useState } from "react";
import { createRoot } from "react-dom/client";
import { useChat } from "@ai-sdk/react";
import { DefaultChatTransport, lastAssistantMessageIsCompleteWithApprovalResponses } from "ai";
import { load, chatTransport } from "./toolnexus.mjs";
import { demoModel } from "./demo-model.mjs";

const params = new URLSearchParams(location.search);

async function makeTransport() {
  if (params.get("mode") === "worker") {
    return new DefaultChatTransport({ api: params.get("api"), headers: { authorization: `Bearer ${params.get("token")}` } });
  }
  const tnx = await load({ wasm: "./toolnexus.wasm" });
  const toolkit = await tnx.createToolkit({
    tools: [tnx.defineTool({
      name: "refund",
      description: "Refund an order",
      inputSchema: { type: "object", properties: { order: { type: "string" } }, required: ["order"] },
      needsApproval: true,
      run: ({ order }) => `refunded order ${order}`,
    })],
  });
  const client = await tnx.createClient({ ...demoModel() });
  return chatTransport({ client, toolkit });
}

function ToolPart({ part, answer }) {
  const name = part.type.slice("tool-".length);
  return h("div", { className: "tool", "data-tool": name, "data-state": part.state },
    h("code", { className: "call" }, `${name}(${JSON.stringify(part.input ?? {})})`),
    part.state === "approval-requested" && h("span", { className: "approval" },
      h("span", { className: "prompt" }, part.approval.descriptor?.prompt ?? "Allow this call?"),
      h("button", { className: "approve", onClick: () => answer({ id: part.approval.id, approved: true }) }, "Approve"),
      h("button", { className: "deny", onClick: () => answer({ id: part.approval.id, approved: false, reason: "not today" }) }, "Deny")),
    part.state === "output-available" && h("span", { className: "output" }, String(part.output)),
    part.state === "output-denied" && h("span", { className: "denied" }, "denied"),
    part.state === "output-error" && h("span", { className: "error" }, part.errorText));
}

function App({ transport }) {
  const { messages, sendMessage, addToolApprovalResponse, status, error } = useChat({
    transport,
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
  });
  const [input, setInput] = useState("");
  return h("main", null,
    h("ol", { id: "messages" }, messages.map((m) => h("li", { key: m.id, className: m.role },
      m.parts.map((p, i) => p.type === "text" ? h("p", { key: i, className: "text" }, p.text)
        : p.type.startsWith("tool-") ? h(ToolPart, { key: i, part: p, answer: addToolApprovalResponse })
        : null)))),
    h("form", { onSubmit: (e) => { e.preventDefault(); sendMessage({ text: input }); setInput(""); } },
      h("input", { id: "prompt", value: input, onChange: (e) => setInput(e.target.value) }),
      h("button", { id: "send", type: "submit", disabled: status !== "ready" }, "Send")),
    h("output", { id: "status" }, status),
    error && h("output", { id: "error" }, error.message));
}

makeTransport().then((transport) => {
  createRoot(document.getElementById("root")).render(h(App, { transport }));
  document.body.dataset.ready = "1";
}, (err) => {
  document.body.textContent = "could not start: " + err.message;
});
