// tools.test.mjs — skills and the built-in tools through the JS API, under
// Node 20, with the tools build of the wasm (toolnexus-tools.wasm).
//
//   ./build.sh && cd tests && timeout 300 node --test tools.test.mjs
//
// The built bundle is read from $TOOLNEXUS_WEB, else $TOOLNEXUS_DIST/web, else ../dist/web.

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { loadToolsBuild } from "./tools-build.mjs";

const T = { timeout: 30_000 };
const BUILTINS = ["question", "webfetch", "todowrite", "read", "write", "edit", "glob", "grep", "apply_patch"];

let tnx;
let server; // serves a skills index and a web page on 127.0.0.1
let base;

const SKILLS = {
  "skills/notes/SKILL.md": "---\nname: notes\ndescription: Keep tidy notes in markdown.\n---\n# Notes\nWrite notes under notes/.",
  "skills/notes/template.md": "# Title",
  "skills/broken/SKILL.md": "---\nname: broken\ndescription: [unclosed\n---\nbody",
};

before(async () => {
  tnx = await loadToolsBuild();
  server = createServer((req, res) => {
    if (req.url === "/skills.json") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ files: SKILLS }));
    } else if (req.url === "/page") {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<html><body><h1>Title</h1><p>Hello <b>web</b>.</p><script>x()</script></body></html>");
    } else {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("nothing here");
    }
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${server.address().port}`;
});

after(() => new Promise((r) => (server ? server.close(r) : r())));

const names = async (tk) => ((await tk.tools()) ?? []).map((t) => t.name); // tools() is null when empty

test("built-ins are on by default, after the host's tools; false and a map turn them off", T, async () => {
  const note = tnx.defineTool({ name: "read", description: "the host's read", run: () => "host read" });
  const tk = await tnx.createToolkit({ tools: [note] });
  assert.deepEqual(await names(tk), ["read", ...BUILTINS.filter((n) => n !== "read")]);
  assert.equal((await tk.execute("read", { path: "x" })).output, "host read", "the host's tool of a name wins");
  const approvals = Object.fromEntries((await tk.tools()).map((t) => [t.name, t.needsApproval]));
  assert.deepEqual([approvals.write, approvals.edit, approvals.apply_patch, approvals.question], [true, true, true, false]);
  assert.deepEqual(await names(await tnx.createToolkit({ tools: [], builtins: false })), []);
  assert.deepEqual(await names(await tnx.createToolkit({ builtins: { webfetch: false, grep: false } })),
    BUILTINS.filter((n) => n !== "webfetch" && n !== "grep"));
  await assert.rejects(tnx.createToolkit({ builtins: { bash: true } }), /no bash built-in: it runs in a sandbox/);
  await assert.rejects(tnx.createToolkit({ builtins: "yes" }), /builtins must be/);
});

test("the virtual file system: initial files, writes reported to onFilesChange, files()", T, async () => {
  const changes = [];
  const tk = await tnx.createToolkit({
    files: { "/docs/a.md": "alpha\nbeta\n" },
    onFilesChange: (path, text) => changes.push([path, text]),
  });
  assert.deepEqual(await tk.files(), { "docs/a.md": "alpha\nbeta\n" });
  assert.equal((await tk.execute("write", { path: "docs/b.md", content: "gamma" })).isError, false);
  assert.equal((await tk.execute("edit", { path: "docs/a.md", oldString: "beta", newString: "BETA" })).isError, false);
  const grep = await tk.execute("grep", { pattern: "^(ALPHA|BETA)$", path: "docs" });
  assert.equal(grep.output, "a.md:2:BETA", "grep uses JavaScript's RegExp");
  assert.match((await tk.execute("grep", { pattern: "(" })).output, /bad pattern/);
  assert.equal((await tk.execute("glob", { pattern: "**/*.md" })).output, "docs/a.md\ndocs/b.md");
  const bad = await tk.execute("apply_patch", { patchText: "*** Begin Patch\n*** Add File: docs/c.md\n+new\n*** Update File: docs/a.md\n@@\n-missing\n+x\n*** End Patch" });
  assert.equal(bad.isError, true);
  assert.match(bad.output, /hunk 1 does not apply/);
  assert.deepEqual(await tk.files(), { "docs/a.md": "alpha\nBETA\n", "docs/b.md": "gamma" }, "a failed patch writes nothing");
  const good = await tk.execute("apply_patch", { patchText: "*** Begin Patch\n*** Delete File: docs/b.md\n*** End Patch" });
  assert.equal(good.isError, false, good.output);
  assert.deepEqual(changes, [["docs/b.md", "gamma"], ["docs/a.md", "alpha\nBETA\n"], ["docs/b.md", null]]);
  await tk.close();
});

test("skills from an object of path ⇒ text: listed, loaded, broken YAML reported", T, async () => {
  const tk = await tnx.createToolkit({ skills: SKILLS, builtins: false });
  assert.deepEqual(await names(tk), ["skill"]);
  const prompt = await tk.skillsPrompt();
  assert.match(prompt, /- notes: Keep tidy notes in markdown\./);
  assert.doesNotMatch(prompt, /broken/);
  const loaded = await tk.execute("skill", { name: "notes" });
  assert.match(loaded.output, /# Notes\nWrite notes under notes\//);
  assert.match(loaded.output, /- template\.md/);
  const info = await tk.skills();
  assert.deepEqual(info.skills.map((s) => s.name), ["notes"]);
  assert.equal(info.problems.length, 1);
  assert.equal(info.problems[0].path, "skills/broken/SKILL.md");
  assert.match(info.problems[0].error, /malformed frontmatter/);
});

test("skills from the URL of a JSON index", T, async () => {
  const tk = await tnx.createToolkit({ skills: `${base}/skills.json`, builtins: false });
  assert.match(await tk.skillsPrompt(), /- notes: /);
  await assert.rejects(tnx.createToolkit({ skills: `${base}/missing.json` }), /HTTP 404/);
});

test("webfetch returns readable markdown; non-2xx is an error", T, async () => {
  const tk = await tnx.createToolkit({ builtins: { webfetch: true } });
  const page = await tk.execute("webfetch", { url: `${base}/page` });
  assert.equal(page.isError, false, page.output);
  assert.equal(page.output, "# Title\n\nHello **web**.");
  const missing = await tk.execute("webfetch", { url: `${base}/nope` });
  assert.equal(missing.isError, true);
  assert.match(missing.output, /^HTTP 404: nothing here/);
});

test("question suspends with kind question; the answers come back as the result", T, async () => {
  const asked = [];
  let turn = 0;
  const fetch = async (_url, init) => {
    const body = JSON.parse(typeof init.body === "string" ? init.body : new TextDecoder().decode(init.body));
    turn++;
    const message = turn === 1
      ? { role: "assistant", content: null, tool_calls: [{ id: "q1", type: "function", function: { name: "question",
        arguments: JSON.stringify({ questions: [{ question: "Color?", options: ["red", "blue"] }] }) } }] }
      : { role: "assistant", content: `got: ${body.messages.at(-1).content}` };
    return new Response(JSON.stringify({ choices: [{ index: 0, message, finish_reason: turn === 1 ? "tool_calls" : "stop" }] }),
      { headers: { "content-type": "application/json" } });
  };
  const tk = await tnx.createToolkit({ builtins: { webfetch: false } });
  const client = await tnx.createClient({ baseURL: "https://model.test/v1", model: "m", fetch,
    waitFor: async (req) => { asked.push(req); return { id: req.id, ok: true, data: { answers: ["blue"] } }; } });
  const res = await client.run("pick a color", tk);
  assert.equal(asked.length, 1);
  assert.equal(asked[0].kind, "question");
  assert.deepEqual(asked[0].data.questions, [{ question: "Color?", options: ["red", "blue"] }]);
  assert.equal(res.text, "got: Color?\n→ blue");
});
