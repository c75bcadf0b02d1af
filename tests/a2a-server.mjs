// a2a-server.mjs — a remote agent built with the official A2A JavaScript SDK
// (@a2a-js/sdk, A2A 1.0: its DefaultRequestHandler, InMemoryTaskStore and the
// Express JSON-RPC and agent-card handlers), on 127.0.0.1 and a free port,
// for the tests in which our A2A tools call a real A2A server.
//
//   const agent = await startA2AServer();
//   agent.cardURL   // http://127.0.0.1:PORT/.well-known/agent-card.json
//   agent.stats     // {sent, refunds, cancelled: [taskId], replies: [text]}
//   await agent.close();
//
// The agent is "billing desk" with two skills, refund and status. What a
// task does follows the text of its first message:
//   "refund order N"  input-required: "Refund order N for $30? …"; a reply
//                     completes it with "refunded order N (reply: …)"
//   "break …"         failed: "the ledger is offline"
//   anything else     completed at once: "order status: shipped"
// CancelTask cancels a task waiting for its reply. The server answers CORS
// so a page on another origin (the Chromium test) can call it.

import express from "express";
import { AgentEvent, DefaultRequestHandler, InMemoryTaskStore } from "@a2a-js/sdk/server";
import { UserBuilder, agentCardHandler, jsonRpcHandler } from "@a2a-js/sdk/server/express";
import { Role, TaskState } from "@a2a-js/sdk";

const part = (text) => ({ content: { $case: "text", value: text }, metadata: undefined, filename: "", mediaType: "text/plain" });
const agentMessage = (text, taskId, contextId) => ({
  messageId: crypto.randomUUID(), contextId, taskId, role: Role.ROLE_AGENT, parts: [part(text)],
  metadata: undefined, extensions: [], referenceTaskIds: [],
});
const textOf = (message) => (message?.parts ?? []).map((p) => (p.content?.$case === "text" ? p.content.value : "")).join("");

export async function startA2AServer() {
  const stats = { sent: 0, refunds: 0, cancelled: [], replies: [] };
  const status = (taskId, contextId, state, text) => AgentEvent.statusUpdate({
    taskId, contextId, metadata: undefined,
    status: { state, message: text ? agentMessage(text, taskId, contextId) : undefined, timestamp: new Date().toISOString() },
  });

  const executor = {
    async execute(ctx, bus) {
      stats.sent++;
      const { taskId, contextId } = ctx;
      const text = textOf(ctx.userMessage);
      const first = !ctx.task;
      // Every turn starts with the task (the SDK requires it as the first event).
      bus.publish(AgentEvent.task(ctx.task ?? {
        id: taskId, contextId, artifacts: [], history: [ctx.userMessage], metadata: undefined,
        status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: new Date().toISOString() },
      }));
      const done = (answer) => {
        bus.publish(AgentEvent.artifactUpdate({
          taskId, contextId, append: false, lastChunk: true, metadata: undefined,
          artifact: { artifactId: crypto.randomUUID(), name: "answer", description: "", parts: [part(answer)], metadata: undefined, extensions: [] },
        }));
        bus.publish(status(taskId, contextId, TaskState.TASK_STATE_COMPLETED));
        bus.finished();
      };
      if (!first) {
        // A reply to our question: the refund goes ahead.
        stats.replies.push(text);
        stats.refunds++;
        const order = textOf(ctx.task.history?.[0]).match(/order (\d+)/)?.[1] ?? "?";
        return done(`refunded order ${order} (reply: ${text})`);
      }
      const refund = text.match(/refund order (\d+)/);
      if (refund) {
        bus.publish(status(taskId, contextId, TaskState.TASK_STATE_INPUT_REQUIRED,
          `Refund order ${refund[1]} for $30? Reply to confirm.`));
        return; // the bus stays open for the reply (or a CancelTask)
      }
      if (text.startsWith("break")) {
        bus.publish(status(taskId, contextId, TaskState.TASK_STATE_FAILED, "the ledger is offline"));
        bus.finished();
        return;
      }
      bus.publish(status(taskId, contextId, TaskState.TASK_STATE_WORKING));
      done("order status: shipped");
    },
    async cancelTask(taskId, bus) {
      stats.cancelled.push(taskId);
      bus.publish(status(taskId, "", TaskState.TASK_STATE_CANCELED, "cancelled by the client"));
      bus.finished();
    },
  };

  const app = express();
  app.use((req, res, next) => {
    res.setHeader("access-control-allow-origin", "*");
    res.setHeader("access-control-allow-headers", "content-type, accept, a2a-version, authorization");
    res.setHeader("access-control-allow-methods", "GET, POST, OPTIONS");
    if (req.method === "OPTIONS") return res.status(204).end();
    next();
  });
  const server = await new Promise((resolve) => { const s = app.listen(0, "127.0.0.1", () => resolve(s)); });
  const base = `http://127.0.0.1:${server.address().port}`;
  const card = {
    name: "billing desk", description: "refunds and order status", version: "1.0.0",
    supportedInterfaces: [{ url: `${base}/a2a/jsonrpc`, protocolBinding: "JSONRPC", tenant: "", protocolVersion: "1.0" }],
    provider: undefined, documentationUrl: undefined, iconUrl: undefined,
    capabilities: { streaming: false, pushNotifications: false, extensions: [] },
    securitySchemes: {}, securityRequirements: [], signatures: [],
    defaultInputModes: ["text/plain"], defaultOutputModes: ["text/plain"],
    skills: [
      { id: "refund", name: "Refund", description: "Refund an order (asks the customer to confirm first)", tags: [], examples: [], inputModes: [], outputModes: [], securityRequirements: [] },
      { id: "status", name: "Order status", description: "Tell where an order is", tags: [], examples: [], inputModes: [], outputModes: [], securityRequirements: [] },
    ],
  };
  const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), executor);
  app.use("/.well-known/agent-card.json", agentCardHandler({ agentCardProvider: handler }));
  app.use("/a2a/jsonrpc", jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));

  return {
    url: base,
    cardURL: `${base}/.well-known/agent-card.json`,
    stats,
    close: () => new Promise((resolve) => { server.closeAllConnections?.(); server.close(() => resolve()); }),
  };
}

// Run alone (node a2a-server.mjs) to try it by hand.
if (import.meta.url === `file://${process.argv[1]}`) {
  const agent = await startA2AServer();
  console.log(`A2A agent: ${agent.cardURL}`);
}
