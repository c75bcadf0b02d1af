// demo-tools.mjs — the tools the offline demo offers, shared by the demo page
// and the tests so both exercise exactly the same specs.

import { defineTool } from "./toolnexus.mjs";

/** refund needs a person's approval before it runs. */
export const refund = defineTool({
  name: "refund",
  description: "Refund a customer's order. Needs approval from a person.",
  inputSchema: {
    type: "object",
    properties: { order: { type: "string", description: "the order number" } },
    required: ["order"],
  },
  needsApproval: true,
  run: ({ order }) => `refunded order ${order}`,
});

/** add runs without approval. */
export const add = defineTool({
  name: "add",
  description: "Add two numbers.",
  inputSchema: {
    type: "object",
    properties: { a: { type: "number" }, b: { type: "number" } },
    required: ["a", "b"],
  },
  run: ({ a, b }) => String(Number(a) + Number(b)),
});

/** divide throws on a zero divisor, to show how a failing tool looks. */
export const divide = defineTool({
  name: "divide",
  description: "Divide a by b.",
  inputSchema: {
    type: "object",
    properties: { a: { type: "number" }, b: { type: "number" } },
    required: ["a", "b"],
  },
  run: ({ a, b }) => {
    if (Number(b) === 0) throw new Error("cannot divide by zero");
    return String(Number(a) / Number(b));
  },
});

/** time reports the page's current time. */
export const time = defineTool({
  name: "time",
  description: "The current date and time.",
  inputSchema: { type: "object", properties: {} },
  run: () => new Date().toISOString(),
});

export function demoTools() {
  return [refund, add, divide, time];
}
