// agents-api.mjs — the JS face of core/agents (teams of agents, a runtime of
// handles, halts that come back with the asking agent's path). toolnexus.mjs
// adds these to the API; they need the tools build (toolnexus-tools.wasm),
// the only browser build that links core/agents.
//
//   const billing = tnx.createAgent({ name: "billing", does: "refunds and invoices", tools: [refund] });
//   const support = tnx.createAgent({ name: "support", instructions: "Help the customer.", team: [billing] });
//   const res = await support.run("review order 42", { ...model });      // no waitFor: a halt comes back
//   if (res.status === "pending") {                                      // res.pending.data.path: ["support", "billing"]
//     const done = await res.runtime.resume(tnx.answerDeclined(res.pending.id, "not today"));
//   }
//
// Handles cross as their ids ("root/support.1/billing.1"); results are
// {status, text, isError, limit?, pending?, turns, totalTokens}.

const MISSING = "toolnexus: agents need the tools build — load({ wasm: wasmURL(\"tools\") }), the toolnexus-tools.wasm beside toolnexus.mjs; this wasm does not link core/agents";

/** The agent methods of the API object, over the low-level api. */
export function agentsApi(api, call) {
  const linked = typeof api.createRuntime === "function";
  const need = () => { if (!linked) throw new Error(MISSING); };

  function runtimeOptions(options = {}) {
    const out = {};
    for (const [k, v] of Object.entries(options)) {
      if (v === undefined || v === null || k === "signal") continue;
      out[k] = v;
    }
    // Go hands each event over as JSON text.
    for (const k of ["onEvent", "onStream", "onMetric"]) {
      const user = options[k];
      if (typeof user === "function") out[k] = (text) => { user(JSON.parse(text)); };
    }
    return out;
  }

  /**
   * An agent: {name, does, instructions, tools, team, budget, model, waitFor}.
   * tools are defineTool/relayTool/httpTool specs; team lists other agents;
   * budget is {maxTurns, maxTokens, maxToolCalls, maxWallMs, maxChildren,
   * maxConcurrent, maxDepth}; waitFor answers this agent's subtree first.
   */
  function createAgent(spec = {}) {
    need();
    const { name, does = "", instructions = "", tools = [], team = [], budget, model, waitFor } = spec;
    if (!name || typeof name !== "string") throw new TypeError("toolnexus: createAgent needs a name");
    if (!Array.isArray(tools) || !Array.isArray(team)) throw new TypeError(`toolnexus: agent ${name}: tools and team must be arrays`);
    const agent = {
      name, does, instructions, tools: [...tools], team: [...team],
      ...(budget ? { budget: { ...budget } } : {}), ...(model ? { model } : {}),
      ...(typeof waitFor === "function" ? { waitFor } : {}),
      /**
       * Run prompt on a fresh runtime. options: the model (baseURL, style,
       * apiKey, model, headers, fetch, or generate), waitFor, signal, and
       * onEvent (each handle's transitions), onStream (core's stream events
       * of every turn: text deltas, tool calls, results) and onMetric, each
       * labelled with the agent's handle and path.
       * A result with status "pending" carries result.runtime, kept open for
       * result.runtime.resume(answer) or .snapshot(); any other closes it.
       */
      async run(prompt, options = {}) {
        const rt = await createRuntime({ ...options, agent });
        let res;
        try {
          res = await rt.run(prompt, { signal: options.signal });
        } catch (err) {
          await rt.release();
          throw err;
        }
        if (res.status === "pending") return withRuntime(res, rt);
        await rt.release();
        return res;
      },
    };
    return Object.freeze(agent);
  }

  /** A runtime: options as for agent.run plus agent (the top-level agent). */
  async function createRuntime(options = {}) {
    need();
    if (!options.agent) throw new TypeError("toolnexus: createRuntime needs an agent (from createAgent)");
    return wrapRuntime(await call(() => api.createRuntime(runtimeOptions(options))));
  }

  /** A runtime from runtime.snapshot(): the same options (agent, model, waitFor) are needed again. */
  async function restoreRuntime(options = {}, snapshot) {
    need();
    if (!options.agent) throw new TypeError("toolnexus: restoreRuntime needs the agent the snapshot was made with");
    const text = typeof snapshot === "string" ? snapshot : JSON.stringify(snapshot);
    return wrapRuntime(await call(() => api.restoreRuntime(runtimeOptions(options), text)));
  }

  function wrapRuntime(rt) {
    // After release the Go functions behind rt are gone (a call would reach
    // a released function): every verb but release is then refused with
    // the reason, and release again does nothing.
    let released = false;
    const live = (fn) => call(() => {
      if (released) throw new Error("toolnexus: this runtime was released; create or restore another");
      return fn();
    });
    const json = async (fn) => JSON.parse(await live(fn));
    // A result always has isError (Go leaves it out when false).
    const result = async (fn) => {
      const res = await json(fn);
      res.isError = !!res.isError;
      return res.status === "pending" ? withRuntime(res, self) : res;
    };
    const self = Object.freeze({
      /** Spawn the runtime's agent under the root, give it prompt, wait for its result. */
      run: (prompt, { signal } = {}) => result(() => rt.run(String(prompt), signal)),
      /** A new handle under parent (a handle id; null/undefined: the root) from the agent named name. */
      spawn: (parent, name, budget) => live(() => rt.spawn(parent ?? "", String(name), budget)),
      /** Queue text in the handle's inbox ({ok, error?}); it never starts a turn. */
      post: (handle, text, { channel } = {}) => json(() => rt.post(handle, String(text), channel)),
      /** Start a turn with prompt plus the drained inbox ({ok, error?}). */
      wake: (handle, prompt) => json(() => rt.wake(handle, String(prompt ?? ""))),
      /** The handle's next (or last) result; timeoutMs 0 waits indefinitely. */
      wait: (handle, { timeoutMs = 0 } = {}) => result(() => rt.wait(handle, timeoutMs)),
      /** Abort the handle's running turn (or withdraw its pending request). */
      interrupt: (handle) => live(() => rt.interrupt(handle)),
      /** Close a handle and its children (no handle: everything). force: no grace for a running turn. */
      close: (handle, { force = false } = {}) => live(() => rt.close(handle ?? "", force)),
      /** A row per handle: {id, agent, path, state, tokens, turns, inbox, pendingKind?}. */
      list: () => json(() => rt.list()),
      inspect: async (handle) => (await json(() => rt.inspect(handle)))[0],
      /** Deliver the Answer to the deepest suspended agent; the top-level agent's result. */
      resume: (answer) => result(() => rt.resume(JSON.stringify(answer))),
      /** The halted tree as JSON text, for restoreRuntime in this page or the next. */
      snapshot: () => live(() => rt.snapshot()),
      /** Close everything and release the runtime; it cannot be used afterwards. */
      release: async () => {
        if (released) return;
        released = true;
        await call(() => rt.release());
      },
    });
    return self;
  }

  return { createAgent, createRuntime, restoreRuntime, agentsLinked: linked };
}

// withRuntime hangs the runtime on a pending result without making it part
// of the result's JSON.
function withRuntime(res, rt) {
  Object.defineProperty(res, "runtime", { value: rt, enumerable: false });
  return res;
}
