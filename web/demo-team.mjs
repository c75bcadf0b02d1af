// demo-team.mjs — the demo's agent team: a `support` agent that hands refunds
// to its `billing` sub-agent (core/agents through tnx.createRuntime), with
// approvals that survive a reload.
//
// A team run has no inline waitFor: when billing asks to run refund, the
// whole tree halts at the root (status "pending", pending.data.path
// ["support", "billing"]). The runner saves runtime.snapshot() with the
// request in the store first, then shows the dialog; the answer goes to
// runtime.resume(answer). A reload while the dialog is open finds the saved
// tree, restores it (tnx.restoreRuntime) and shows the same dialog again.
// The saved tree is dropped as soon as an answer is taken, so a reload
// never runs the tool twice.

export const TEAM_STORE_ID = "demo-team";

/** isTeamPrompt: the prompts the demo gives to the team instead of the single agent. */
export function isTeamPrompt(prompt) {
  return /\breview\b/i.test(prompt);
}

/** demoTeam builds support → billing; refund is the (wrapped) refund tool. */
export function demoTeam(tnx, { refund }) {
  const billing = tnx.createAgent({
    name: "billing",
    does: "Refunds and invoices. Give it one order to refund.",
    instructions: "You are billing. Refund the order you are given with the refund tool, then report the outcome in one sentence.",
    tools: [refund],
    budget: { maxTurns: 4 },
  });
  return tnx.createAgent({
    name: "support",
    does: "Answers customers about their orders.",
    instructions: "You are support. Hand refunds to billing with the task tool, then tell the customer what billing reported.",
    team: [billing],
    budget: { maxTurns: 4, maxDepth: 2 },
  });
}

/**
 * teamRunner runs prompts on the team and keeps halted trees in store.
 * view: {call(request) → line|null, answered(line, request, answer),
 *   spawned(path), finished(result), failed(message), saveView()}.
 * model() returns the model options (as for createClient).
 */
export function teamRunner({ tnx, store, ask, team, model, view }) {
  const onEvent = (e) => { if (e.type === "spawned" && e.path.length > 1) view.spawned(e.path); };

  // settle answers halts until the run ends: save the tree, ask, resume.
  async function settle(rt, res, { shownAlready = false } = {}) {
    while (res.status === "pending") {
      const pending = res.pending;
      // Saved before the dialog opens: a reload from here on finds it.
      await store.save(TEAM_STORE_ID, [], { snapshot: await rt.snapshot(), pending });
      const line = shownAlready ? null : view.call(pending);
      view.saveView();
      shownAlready = false;
      let answer;
      try {
        answer = await ask(pending);
      } catch (err) {
        answer = { ok: false, reason: err?.message ?? String(err) };
      }
      answer = { ...answer, id: pending.id };
      await store.clear(TEAM_STORE_ID); // the answer is used once
      view.answered(line, pending, answer);
      res = await rt.resume(answer);
    }
    view.finished(res);
    view.saveView();
    return res;
  }

  return Object.freeze({
    /** Run prompt on a fresh runtime of the team. */
    async run(prompt) {
      const rt = await tnx.createRuntime({ ...model(), agent: team, onEvent });
      try {
        return await settle(rt, await rt.run(prompt));
      } finally {
        await rt.release();
      }
    },
    /** The halted tree saved by an earlier page, if any: {snapshot, pending}. */
    async saved() {
      const rec = await store.get(TEAM_STORE_ID).catch(() => null);
      return rec && typeof rec.snapshot === "string" && rec.pending?.id ? rec : null;
    },
    /** Restore a saved tree and ask its request again. */
    async resume(rec) {
      const rt = await tnx.restoreRuntime({ ...model(), agent: team, onEvent }, rec.snapshot);
      try {
        return await settle(rt, { status: "pending", pending: rec.pending }, { shownAlready: true });
      } finally {
        await rt.release();
      }
    },
  });
}

/** pathText: ["support", "billing"] → "support › billing". */
export function pathText(path) {
  return Array.isArray(path) ? path.join(" › ") : "";
}
