// aisdk-chat.mjs — the AI SDK's framework-free chat for the tests: the `ai`
// package's AbstractChat with its state in plain fields (the ChatState
// interface @ai-sdk/react and the others implement with their own reactivity).
//
//   const chat = new NodeChat({ transport, sendAutomaticallyWhen, messages? });
//   await chat.sendMessage({ text: "hi" }); await settled(chat);

import { AbstractChat } from "ai";

export class NodeChat extends AbstractChat {
  constructor({ messages = [], ...init }) {
    const state = {
      status: "ready",
      error: undefined,
      messages,
      pushMessage(m) { this.messages = this.messages.concat(m); },
      popMessage() { this.messages = this.messages.slice(0, -1); },
      replaceMessage(i, m) { this.messages = [...this.messages.slice(0, i), m, ...this.messages.slice(i + 1)]; },
      snapshot: (v) => structuredClone(v),
    };
    super({ ...init, state });
  }
}

// settled waits until the chat is idle: an approval response sends the next
// request on its own (sendAutomaticallyWhen), after addToolApprovalResponse
// has returned.
export async function settled(chat) {
  for (let i = 0; i < 400; i++) {
    await new Promise((r) => setTimeout(r, 25));
    if (chat.status === "ready" || chat.status === "error") return;
  }
  throw new Error("the chat did not settle: " + chat.status);
}

export const last = (chat) => chat.messages[chat.messages.length - 1];
export const textOf = (m) => m.parts.filter((p) => p.type === "text").map((p) => p.text).join("");
export const toolPart = (m, name) => m.parts.find((p) => p.type === "tool-" + name);
