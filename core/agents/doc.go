// Package agents runs teams of agents over core's tool-calling loop: an
// Agent is a Tool (a system prompt, a scoped tool set and the client loop),
// and a team gives an agent a "task" tool whose targets are its sub-agents.
//
// A Runtime holds the tree of live agents (handles) and offers six host
// verbs — Spawn, Post, Wake, Wait, Interrupt, Close — plus List, Inspect,
// Resume, Snapshot and RestoreRuntime:
//
//   - budgets are carved at spawn (a child gets at most what its parent has
//     left) and checked against every ancestor before each model call and
//     each spawn; an exhausted budget ends the work with status
//     "incomplete", never a crash;
//   - unsolicited messages (Post) wait in a bounded inbox and are drained
//     whole, as one coalesced block, into the next turn;
//   - suspension follows core's rule: a suspending sub-agent presents to
//     its parent exactly as a suspending tool. The nearest WaitFor (the
//     agent's own, then its ancestors', then Options.WaitFor) answers it
//     inline; with none anywhere the run halts at the root with status
//     "pending", and Request.Data["path"] names the asking agent
//     (["support", "billing"]). Runtime.Resume routes the Answer to the
//     deepest suspended agent, which continues exactly where it stopped
//     (core's RunWithAnswer); each parent's task call then re-attaches to
//     the existing child instead of spawning a new one;
//   - a halted tree serializes (Runtime.Snapshot) and comes back in a
//     fresh process (RestoreRuntime), so a browser tab can keep it in
//     IndexedDB and a Worker in a Durable Object.
//
// The package follows the Go port's agents package (github.com/muthuishere/
// toolnexus, golang/agents); docs/agents.md lists where it differs and why.
package agents
