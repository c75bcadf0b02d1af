// decisions.test.mjs — who approved what, in the JS API (issue 32): approval
// rules on createToolkit, "allow for this conversation", and the toolkit's
// chained record of every decision, verified and exported, through the real
// wasm under Node 20.
//
//   ./build.sh && cd tests && timeout 120 node --test decisions.test.mjs

import { before, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = fileURLToPath(new URL(".", import.meta.url));
const WEB = process.env.TOOLNEXUS_WEB ?? join(process.env.TOOLNEXUS_DIST ?? join(here, "..", "dist"), "web");
const T = { timeout: 30_000 };

let tnx;
before(async () => {
  const mod = await import(pathToFileURL(join(WEB, "toolnexus.mjs")).href);
  tnx = await mod.load({ wasm: join(WEB, "toolnexus.wasm") });
});

// caller is an in-page model: the prompt "call <tool> <args JSON>" (one per
// line) asks for those calls; tool results are answered "ok: <results>".
function caller() {
  return async ({ messages }) => {
    const last = messages[messages.length - 1];
    if (last.role === "tool") {
      const outs = [];
      for (let i = messages.length - 1; i >= 0 && messages[i].role === "tool"; i--) outs.unshift(messages[i].content);
      return { text: `ok: ${outs.join(" | ")}` };
    }
    const toolCalls = String(last.content).split("\n").map((line, i) => {
      const [, name, args] = /^call (\S+) (.*)$/.exec(line);
      return { id: `c${i + 1}`, name, arguments: args };
    });
    return { toolCalls };
  };
}

// tools records what really ran.
function tools(ran) {
  const mk = (name, needsApproval) => tnx.defineTool({
    name, needsApproval, inputSchema: { type: "object" },
    run: (args) => { ran.push(`${name} ${JSON.stringify(args)}`); return `${name} done`; },
  });
  return [mk("refund", true), mk("wipe", false), mk("lookup", false), mk("wire", "always")];
}

const RULES = [
  { name: "small refunds", tool: "refund", when: [{ path: "amount", op: "<=", value: 50 }], decision: "allow" },
  { name: "no wipes", tool: "wipe", decision: "deny", reason: "wiping is done by the team" },
  { name: "vip lookups", tool: "lookup", when: [{ path: "customer", op: "startsWith", value: "vip-" }], decision: "ask" },
  { name: "wires", tool: "wire", decision: "allow" },
];

test("rules allow, deny and ask; an always-ask tool asks whatever a rule says", T, async () => {
  const ran = [];
  const tk = await tnx.createToolkit({ tools: tools(ran), approvalRules: RULES });
  const asked = [];
  const client = await tnx.createClient({ generate: caller(), model: "m", waitFor: (req) => { asked.push(req); return { id: req.id, ok: true }; } });
  let res = await client.run('call refund {"amount":50}', tk);
  assert.deepEqual(res.decisions.map((d) => [d.tool, d.decision, d.rule, d.from]), [["refund", "allowed", "small refunds", "rule"]]);
  res = await client.run('call refund {"amount":50.01}', tk); // past the boundary: the tool's own needsApproval asks
  assert.equal(asked.length, 1);
  assert.equal(asked[0].data.rule, undefined);
  res = await client.run("call wipe {}", tk);
  assert.match(res.text, /tool "wipe" was not run: denied: wiping is done by the team/);
  assert.deepEqual(res.decisions.map((d) => [d.decision, d.reason]), [["denied", "wiping is done by the team"]]);
  await client.run('call lookup {"customer":"vip-9"}', tk);
  assert.equal(asked[1].data.rule, "vip lookups");
  await client.run('call lookup {"customer":"c-9"}', tk);
  await client.run('call lookup {"name":"no customer"}', tk); // a missing path: no match, no error
  await client.run('call wire {"amount":1}', tk);
  assert.equal(asked.length, 3);
  assert.equal(asked[2].data.alwaysAsk, true);
  assert.equal(asked[2].data.rule, "wires");
  assert.deepEqual(ran, ['refund {"amount":50}', 'refund {"amount":50.01}', 'lookup {"customer":"vip-9"}',
    'lookup {"customer":"c-9"}', 'lookup {"name":"no customer"}', 'wire {"amount":1}']);
  const listed = await tk.tools();
  assert.equal(listed.find((t) => t.name === "wire").alwaysAsk, true);
});

test("allow for this conversation: the same call runs unasked and says by which decision", T, async () => {
  const ran = [];
  const seen = [];
  const tk = await tnx.createToolkit({ tools: tools(ran), onDecision: (e) => seen.push(e) });
  const asked = [];
  const client = await tnx.createClient({
    generate: caller(), model: "m",
    waitFor: (req) => {
      asked.push(`${req.data.tool} ${JSON.stringify(req.data.args)}`);
      return { id: req.id, ok: true, data: { grant: "args", approver: "in page", from: "tab" } };
    },
  });
  const conv = client.conversation();
  const first = await conv.run('call refund {"order":"42"}', tk);
  assert.equal(first.decisions[0].grant, "args");
  const again = await conv.run('call refund {"order":"42"}', tk);
  assert.equal(again.decisions[0].grantedBy, first.decisions[0].request);
  assert.equal(again.decisions[0].from, "grant");
  assert.equal(again.decisions[0].approver, "in page");
  await conv.run('call refund {"order":"7"}', tk); // other arguments: asks
  await client.run('call refund {"order":"42"}', tk, { conversation: "another" }); // another conversation: asks
  assert.deepEqual(asked, ['refund {"order":"42"}', 'refund {"order":"7"}', 'refund {"order":"42"}']);
  const grants = await tk.grants(conv.id);
  assert.deepEqual(grants.map((g) => [g.tool, g.scope, g.args]), [["refund", "args", { order: "42" }], ["refund", "args", { order: "7" }]]);
  const revoked = await tk.revoke(conv.id, grants[0].id);
  assert.equal(revoked.decision, "revoked");
  assert.equal(await tk.revoke(conv.id, grants[0].id), null);
  await conv.run('call refund {"order":"42"}', tk); // revoked: asks again
  assert.equal(asked.length, 4);
  assert.equal(seen.length, 6); // 5 decisions about calls and the revocation
  assert.deepEqual(seen.map((e) => e.seq), [1, 2, 3, 4, 5, 6]);
  const record = await tk.decisions();
  assert.deepEqual(record, seen);
  await conv.close();
});

test("the record: chained, exported as JSON Lines, and a change or a removal fails verify by name", T, async () => {
  const ran = [];
  const tk = await tnx.createToolkit({ tools: tools(ran), approvalRules: RULES });
  let n = 0;
  const client = await tnx.createClient({
    generate: caller(), model: "m",
    waitFor: (req) => (n++ === 0
      ? { id: req.id, ok: true, data: { args: { amount: 90 }, approver: "in page", from: "tab" } }
      : tnx.answerDeclined(req.id, "not today")),
  });
  await client.run('call refund {"amount":20}\ncall refund {"amount":900}', tk);
  await client.run("call refund {\"amount\":70}", tk);
  await client.run("call wipe {}", tk);
  const entries = await tk.decisions();
  assert.deepEqual(entries.map((e) => e.decision), ["allowed", "edited", "declined", "denied"]);
  const edited = entries[1];
  assert.deepEqual([edited.asked, edited.ran, edited.approver, edited.from], [{ amount: 900 }, { amount: 90 }, "in page", "tab"]);
  const head = await tk.decisionsHead();
  assert.deepEqual(await tnx.verifyDecisions(entries, { head }), { ok: true, count: 4, head });
  const jsonl = await tk.exportDecisions();
  assert.equal(jsonl.trim().split("\n").length, 4);
  assert.equal((await tnx.verifyDecisions(jsonl, { head })).ok, true);

  for (let i = 0; i < entries.length; i++) {
    const changed = structuredClone(entries);
    changed[i].reason = "nothing to see";
    const v = await tnx.verifyDecisions(changed, { head });
    assert.equal(v.ok, false);
    assert.equal(v.index, i + 1, `changed entry ${i + 1}: ${v.error}`);
    assert.match(v.error, new RegExp(`entry ${i + 1} \\(seq ${i + 1}\\)`));
    const removed = entries.filter((_, j) => j !== i);
    const r = await tnx.verifyDecisions(removed, { head });
    assert.equal(r.ok, false, `removed entry ${i + 1}`);
    assert.match(r.error, i === entries.length - 1 ? /its last entries were removed/ : /entry \d \(seq \d\)/);
  }
  const lines = jsonl.trim().split("\n");
  lines[2] = lines[2].replace('"declined"', '"approved"');
  const v = await tnx.verifyDecisions(lines.join("\n"), { head });
  assert.equal(v.ok, false);
  assert.equal(v.seq, 3);
  assert.deepEqual(ran, ['refund {"amount":20}', 'refund {"amount":90}']);
});

test("bad rules: every problem at once, nothing made; an oversize list is refused", T, async () => {
  const err = await tnx.createToolkit({
    tools: [], approvalRules: [
      { tool: "refund", decision: "sometimes" },
      { tool: "refund", when: [{ path: "amount", op: "<=", value: "fifty" }], decision: "allow" },
      { tool: "refund", when: [{ path: "amount", op: "about", value: 1 }], decision: "allow" },
    ],
  }).then(() => null, (e) => e);
  assert.ok(err, "createToolkit took broken rules");
  for (const want of ["rule 1: \"decision\" must be allow, deny or ask", "rule 2: condition 1: \"value\" of <= must be a number", "rule 3: condition 1: \"op\" must be"]) {
    assert.ok(err.message.includes(want), `${err.message}\nlacks ${want}`);
  }
  await assert.rejects(tnx.createToolkit({ approvalRules: "[{not json" }), /not valid JSON/);
  const many = Array.from({ length: 201 }, (_, i) => ({ tool: `t${i}`, decision: "ask" }));
  await assert.rejects(tnx.createToolkit({ approvalRules: many }), /201 rules; at most 200 are allowed/);
  assert.equal((await tnx.verifyDecisions("not a record")).ok, false);
});
