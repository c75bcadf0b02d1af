// worker.mjs — the Cloudflare Worker's main module. ./build.sh worker copies it into
// dist/worker/build next to app.wasm (wasm/worker) and Go's own wasm_exec.js.
//
// One Go instance per isolate serves every request, concurrent ones included: the
// module instantiates app.wasm as it loads (or, if that fails, the first request
// does) and runs Go, whose main hands back its API
// (cfworker.Serve, worker/cfworker/serve_js.go); each request is then one message
// to Go (its head and its whole body, posted through web/bridge-host.mjs), and Go
// answers through the server object below with numbers only: every crossing of the
// boundary is a JS call in workerd, dearer there than the work of a small request.
// When the instance dies (a panic outside a request, a trap), the requests it was
// serving get a 500 and the next request starts a fresh one. A durable run's
// RunLog object runs the run's executor on the same instance (RunLog below).
//
// Workers tie I/O (fetch, KV, streams, timers) to the request whose handler started
// it, and Go runs any goroutine that is ready whenever JavaScript calls in, so Go
// can find itself running one request's goroutine while another request's handler
// is current. This module gives Go what it needs to keep each request's I/O in that
// request's context:
//   - before each resume of Go the id of the request whose context runs now
//     (AsyncLocalStorage, the compatibility flag nodejs_als) is written into Go's
//     memory (api.current);
//   - rq.hop() makes Go's api.wake(id) run in request id's context, by resolving a
//     promise made there (workerd then runs the continuation in that context);
//   - Go's timer (runtime.scheduleTimeoutEvent) lives in a request that is still
//     running: a request that ends hands it on, and with no request running it is
//     set again by the next one;
//   - a pending timer per request keeps workerd from cancelling a request whose Go
//     side waits on another request's events, and ctx.waitUntil keeps its context
//     until Go is done with it.

import "./wasm_exec.js";
import { AsyncLocalStorage } from "node:async_hooks";
import { bridgeHost } from "./bridge-host.mjs";
import wasm from "./app.wasm";

// ApprovalLedger is the Durable Object bound as APPROVALS that makes each
// state token single-use (ledger.mjs).
export { ApprovalLedger } from "./ledger.mjs";
import { RunLog as RunLogStore } from "./runs.mjs";

const als = new AsyncLocalStorage();
const nullBody = new Set([101, 204, 205, 304]);
const enc = new TextEncoder();
const dec = new TextDecoder();
let live = null; // the running instance
let loading = true; // the module is loading (global scope): see the end of this file
let starts = 0;
let nextID = 1;

export default {
  fetch(request, env, ctx) {
    const id = nextID++;
    return als.run(id, () => {
      if (!live || live.dead) live = start();
      return live.serve(id, request, env, ctx);
    });
  },
};

// RunLog is the Durable Object bound as RUNS that holds a durable run and
// runs it (runs.mjs: POST /v1/runs). Its alarm calls drive, which runs one
// life of the run's executor on this isolate's Go instance, as a request of
// the object's own (the executor reaches the object directly: rq.runLog);
// no request from outside can reach the executor's path.
export class RunLog extends RunLogStore {
  async drive(runId) {
    const id = nextID++;
    const res = await als.run(id, () => {
      if (!live || live.dead) live = start();
      const request = new Request("https://runlog.invalid/__toolnexus/drive", { method: "POST", headers: { "x-toolnexus-run": runId } });
      return live.serve(id, request, this.env, this.ctx, this);
    });
    const body = await res.text();
    if (!res.ok) throw new Error(`the executor answered HTTP ${res.status}: ${body.slice(0, 200)}`);
    return JSON.parse(body);
  }
}

// start instantiates app.wasm and runs Go until its main has called
// __toolnexusWorkerBoot(api).
function start() {
  const go = new Go();
  startupSeed(go);
  // go.run's promise belongs to the request that starts the instance; it is
  // never settled, so that an exit while another request runs does not
  // resolve it from there (workerd warns). _resume notices an exit instead.
  go._resolveExitPromise = () => {};
  const inst = { number: ++starts, api: null, dead: null, requests: new Map(), serve, atLoad: loading };
  const timers = goTimers(go, inst);
  // Views over Go's memory, made again only when it grows.
  let buf = null, u8 = null, i32 = null;
  const views = () => {
    const b = go._inst.exports.mem.buffer;
    if (b !== buf) [buf, u8, i32] = [b, new Uint8Array(b), new Int32Array(b)];
  };
  const text = (p, n) => (n > 0 ? (views(), dec.decode(new DataView(buf, p, n))) : "");
  const bytes = (p, n) => (views(), u8.slice(p, p + n));
  let code = 0;
  go.exit = (c) => { code = c; };
  // Every call into Go goes through _resume: a trap kills the instance, and
  // so does an exit (a panic outside a request).
  const exited = () => die(inst, new Error(`the Go program exited with code ${code}`));
  const resume = go._resume.bind(go);
  go._resume = () => {
    if (go.exited) return exited();
    // Go reads whose context runs from its memory (cfworker currentRequest).
    if (inst.api) {
      views();
      i32[inst.api.current >> 2] = als.getStore() ?? 0;
    }
    try {
      resume();
    } catch (err) {
      die(inst, err);
      throw err;
    }
    if (go.exited) exited();
  };
  // jsbridge's narrow boundary (web/bridge-host.mjs): a model call crosses
  // as one host call with numbers only. Go reads it while it starts.
  const host = bridgeHost(go);
  globalThis.__toolnexusHost = host;
  globalThis.__toolnexusWorkerBoot = (api) => {
    inst.api = { current: api.current, requests: api.requests, wake: api.wake, gone: api.gone };
    inst.post = (id, head, body) => host.post(api.requests, id, enc.encode(head), body);
    // The server Go answers through (cfworker serve_js.go): ids, and a
    // pointer and a length into Go's memory for each text and body.
    const rq = (id) => inst.requests.get(id);
    return {
      // stats is for GET /__test/instance: what the JS side holds for Go.
      stats: () => ({
        refs: go._values.length - go._idPool.length, requests: inst.requests.size, timers: timers.size,
        memory: go._inst.exports.mem.buffer.byteLength, startedAtLoad: inst.atLoad,
      }),
      settings: (id) => rq(id)?.settings() ?? "{}",
      env: (id) => rq(id)?.env,
      runLog: (id) => rq(id)?.runLog ?? undefined,
      respond: (id, status, hp, hn, bp, bn) => rq(id)?.respond(status, text(hp, hn), bp < 0 ? null : bytes(bp, bn)),
      open: (id, status, hp, hn) => rq(id)?.open(status, text(hp, hn)),
      push: (id, p, n) => rq(id)?.push(bytes(p, n)) ?? false,
      end: (id, p, n) => rq(id)?.end(text(p, n)),
      hop: (id) => rq(id)?.hop(),
      done: (id) => rq(id)?.done(),
      log: (p, n) => console.log(text(p, n)),
    };
  };
  try {
    go.run(new WebAssembly.Instance(wasm, go.importObject)).catch((err) => die(inst, err));
  } catch (err) {
    die(inst, err);
    throw err;
  } finally {
    delete globalThis.__toolnexusWorkerBoot;
    delete globalThis.__toolnexusHost;
  }
  if (go.exited) exited();
  if (!inst.api) {
    // A throw inside go.run rejects its promise, which reports later: the
    // refusal of random bytes while loading is kept to name the cause now.
    const err = new Error(`app.wasm did not call __toolnexusWorkerBoot${go.refusal ? `: ${go.refusal.message}` : ""}`);
    die(inst, err);
    throw err;
  }

  // serve runs one request through Go: a fetch, or (runLog set) one life of
  // a durable run's executor in its RunLog object.
  function serve(id, request, env, ctx, runLog = null) {
    let answer, settled = false;
    const response = new Promise((resolve) => { answer = resolve; });
    let finish = null; // ends the waitUntil of a request that outlives Go's first turn
    // head is the request line and headers in one string for Go:
    // "instance\nsettings\nmethod\nurl\nflags\nname\nvalue\n…" (header
    // values hold no newline); settings is env's version (settingsOf), flags
    // "d" for a durable run's drive.
    const settings = settingsOf(env);
    let head = `${inst.number}\n${settings.version}\n${request.method}\n${request.url}\n${runLog ? "d" : ""}`;
    for (const [k, v] of request.headers) head += `\n${k}\n${v}`;
    const rq = {
      id, instance: inst.number, request, env, ctx, runLog,
      // settings() is env's settings as JSON text, which Go reads once per
      // version (settingsOf).
      settings: () => settings.text ??= settingsText(env),
      keep: 0,
      ring: null, hopping: false, tasks: [], finished: false, stream: null,
      // respond answers with the whole body (a Uint8Array or null).
      respond(status, headers, body) {
        settled = true;
        try {
          answer(new Response(nullBody.has(status) ? null : body, { status, headers: headerList(headers) }));
        } catch (err) { // a status or header the platform refuses
          answer(Response.json({ error: { code: "internal", message: `the response cannot be sent: ${err.message}` } }, { status: 500 }));
        }
      },
      // open answers with a stream that push feeds and end closes.
      open(status, headers) {
        settled = true;
        const body = new ReadableStream({
          start: (c) => { rq.stream = c; },
          cancel: () => { rq.stream = null; if (!inst.dead) inst.api.gone(id); },
        });
        answer(new Response(body, { status, headers: headerList(headers) }));
      },
      // push feeds the stream; false: the client has gone.
      push(chunk) {
        try {
          rq.stream.enqueue(chunk);
          return true;
        } catch {
          rq.stream = null;
          return false;
        }
      },
      end(message) {
        const s = rq.stream;
        rq.stream = null;
        try {
          if (message) s?.error(new Error(message));
          else s?.close();
        } catch { /* already cancelled */ }
      },
      hop() {
        if (rq.hopping) return;
        rq.hopping = true;
        rq.ring();
      },
      // done: Go is finished with this request.
      done() {
        if (rq.finished) return;
        rq.finished = true;
        clearTimeout(rq.keep);
        inst.requests.delete(id);
        timers.release(rq);
        rq.ring(); // settles the pending bell: nothing is left waiting
        // Go may hold rq until its next collection: let what rq reaches go now.
        rq.request = rq.env = rq.ctx = rq.stream = rq.runLog = null;
        finish?.();
      },
      // fail answers a request the dead instance left: a 500, or an error
      // in the stream when its headers are out.
      fail(err) {
        if (!settled) {
          settled = true;
          answer(Response.json({ error: { code: "internal", message: "the Worker's Go instance stopped while serving this request; retry" } }, { status: 500 }));
        } else rq.end(`the Worker's Go instance stopped: ${err?.message ?? err}`);
        rq.done();
      },
      run(task) {
        rq.tasks.push(task);
        rq.ring();
      },
    };
    rq.ring = bell(rq);
    inst.requests.set(id, rq);
    timers.adopt(rq);
    // A request Go has not finished when it waits needs ctx.waitUntil, to
    // keep its context until Go is done with it; a pending timer, to keep
    // workerd from cancelling it while its Go side waits on another
    // request's events; and the client's abort, to reach Go (api.gone).
    // Go runs until it waits: a request it finishes at once (a health
    // check, an error) needs none of them.
    const outlive = () => {
      if (rq.finished || finish) return;
      rq.keep = setTimeout(() => {}, 1 << 30);
      ctx.waitUntil(new Promise((resolve) => { finish = resolve; }));
      request.signal?.addEventListener?.("abort", () => { if (!inst.dead && !rq.finished) inst.api.gone(id); });
    };
    const post = (body) => {
      if (inst.dead) return rq.fail(inst.dead);
      try {
        inst.post(id, head, body);
      } catch (err) { // a trap: die has answered rq
        die(inst, err);
      }
      outlive();
    };
    if (inst.dead) rq.fail(inst.dead);
    else if (!request.body) post(undefined);
    else {
      // Go gets the body whole, with the request: up to the body limit and
      // a byte more, so that Go answers 413 past it.
      outlive();
      readBody(request, bodyCap(env)).then(post, () => {
        rq.respond(400, "content-type\napplication/json; charset=utf-8\n", enc.encode('{"error":{"code":"bad_request","message":"the request body cannot be read"}}\n'));
        rq.done();
      });
    }
    return response;
  }

  // bell returns the resolver of a promise made in rq's context: resolving
  // it from any context runs the continuation in rq's (the compatibility
  // flag handle_cross_request_promise_resolution, on since 2024-10-14).
  function bell(rq) {
    let ring;
    new Promise((resolve) => { ring = resolve; }).then(() => {
      // A finished request gets no new bell (done rings the last one).
      if (!rq.finished) rq.ring = bell(rq);
      for (const task of rq.tasks.splice(0)) task();
      if (rq.hopping && !rq.finished && !inst.dead) {
        rq.hopping = false;
        inst.api.wake(rq.id);
      }
    });
    return ring;
  }

  return inst;
}

// die marks the instance dead: its requests are answered and the next
// request starts a fresh one.
function die(inst, err) {
  if (inst.dead) return;
  inst.dead = err ?? new Error("the Go instance stopped");
  if (live === inst) live = null;
  console.error(`toolnexus: the Go instance #${inst.number} stopped: ${inst.dead?.stack ?? inst.dead}`);
  for (const rq of [...inst.requests.values()]) rq.fail(inst.dead);
}

// goTimers replaces Go's timer imports so that its one pending timer lives
// in a request that is still running (a timer dies with the request that
// set it).
function goTimers(go, inst) {
  const timers = new Map(); // Go's timeout id ⇒ {due, owner, handle, lost}
  let next = 1;
  const place = (id, t, rq) => {
    t.owner = rq;
    t.lost = false;
    t.handle = setTimeout(() => {
      if (timers.get(id) !== t || inst.dead) return;
      timers.delete(id);
      go._resume();
    }, Math.max(0, t.due - Date.now()));
  };
  const anyRunning = () => {
    for (const rq of inst.requests.values()) if (!rq.finished) return rq;
    return null;
  };
  // moveOn sets t again in a running request's context, or marks it lost.
  const moveOn = (id, t) => {
    t.owner = null;
    const rq = anyRunning();
    if (!rq) {
      t.lost = true;
      return;
    }
    rq.run(() => {
      if (timers.get(id) === t && !t.owner) {
        if (rq.finished) moveOn(id, t);
        else place(id, t, rq);
      }
    });
  };
  const gojs = go.importObject.gojs;
  gojs["runtime.scheduleTimeoutEvent"] = (sp) => {
    sp >>>= 0;
    const ms = go.mem.getUint32(sp + 8, true) + go.mem.getInt32(sp + 12, true) * 4294967296;
    const id = next++;
    const t = { due: Date.now() + ms, owner: null, handle: 0, lost: false };
    timers.set(id, t);
    const rq = inst.requests.get(als.getStore());
    if (rq && !rq.finished) place(id, t, rq);
    else moveOn(id, t);
    go.mem.setInt32(sp + 16, id, true);
  };
  gojs["runtime.clearTimeoutEvent"] = (sp) => {
    sp >>>= 0;
    const id = go.mem.getInt32(sp + 8, true);
    const t = timers.get(id);
    if (!t) return;
    timers.delete(id);
    clearTimeout(t.handle); // a no-op from another request's context: the callback checks
  };
  return {
    get size() { return timers.size; },
    // release hands on the timers rq's context holds.
    release(rq) {
      for (const [id, t] of timers) if (t.owner === rq) { clearTimeout(t.handle); moveOn(id, t); }
    },
    // adopt sets the lost timers in rq's context (rq's handler runs now).
    adopt(rq) {
      for (const [id, t] of timers) if (t.lost) place(id, t, rq);
    },
  };
}

// bodyCap is how much of a request body Go gets: MAX_BODY_BYTES (worker
// config.go; 1 MiB when unset or not a positive integer: Go then answers
// the setting's problem) and one byte more, so that Go sees a body over it.
function bodyCap(env) {
  const n = Number(String(env?.MAX_BODY_BYTES ?? "").trim());
  return (Number.isSafeInteger(n) && n > 0 ? Math.max(n, 1 << 20) : 1 << 20) + 1;
}

// readBody reads request's body whole, or its first cap bytes when it is
// longer (the rest is left unread).
async function readBody(request, cap) {
  const len = Number(request.headers.get("content-length"));
  if (Number.isSafeInteger(len) && len < cap) return new Uint8Array(await request.arrayBuffer());
  const reader = request.body.getReader();
  const parts = [];
  let n = 0;
  while (n < cap) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    n += value.byteLength;
  }
  if (n >= cap) reader.cancel().catch(() => {});
  const out = new Uint8Array(Math.min(n, cap));
  let at = 0;
  for (const p of parts) {
    out.set(p.subarray(0, out.length - at), at);
    at += Math.min(p.byteLength, out.length - at);
  }
  return out;
}

// settingsOf numbers each env object the Worker's handlers get (workerd
// hands every request of an isolate the same one; a Durable Object has its
// own): Go reads an env's settings once, by its version, instead of one
// binding per setting per request.
const settingsByEnv = new WeakMap();
let settingsVersions = 0;
function settingsOf(env) {
  let s = settingsByEnv.get(env);
  if (!s) {
    s = { version: ++settingsVersions, text: null };
    if (env && typeof env === "object") settingsByEnv.set(env, s);
  }
  return s;
}

// settingsText is env's settings as JSON: {"s": settings, "b": bindings}.
// The settings are strings, numbers and booleans as they are and a JSON var
// (an array or a plain object) as its JSON text; the bindings (KV
// namespaces, Durable Objects, R2 buckets) are listed by name only: Go
// reads one from env when a route needs it, and knows without asking when
// it is not bound.
function settingsText(env) {
  const s = {}, b = [];
  for (const k of Object.keys(env ?? {})) {
    const v = env[k];
    if (typeof v === "string" || typeof v === "boolean" || (typeof v === "number" && Number.isFinite(v))) s[k] = v;
    else if (v !== null && typeof v === "object" && (Array.isArray(v) || [Object.prototype, null].includes(Object.getPrototypeOf(v)))) {
      s[k] = JSON.stringify(v);
    } else if (v != null) b.push(k);
  }
  return JSON.stringify({ s, b });
}

// headerList turns Go's "name\nvalue\n…" into [[name, value], …].
function headerList(text) {
  const out = [];
  if (!text) return out;
  const parts = text.split("\n");
  for (let i = 0; i + 1 < parts.length; i += 2) out.push([parts[i], parts[i + 1]]);
  return out;
}

// Go starts while the module loads, not in the first request. Its runtime
// (memory, scheduler, package initialisers, the handler's tables) and the
// lazy compilation of the code that runs it then cost nothing on a fresh
// isolate's first request: about a third of its CPU (bench/PROFILE.md).
// workerd refuses random bytes in global scope; startupSeed gives Go's
// runtime its one seed there. If Go cannot start here the first request
// starts it, as before.
try {
  live = start();
} catch (err) {
  live = null;
  console.error(`toolnexus: Go did not start while the module loaded; the first request starts it: ${err?.message ?? err}`);
}
loading = false;

// startupSeed replaces two of Go's imports for a start in global scope:
//   - runtime.getRandomData: Go's runtime reads 32 bytes once as it starts,
//     to seed map hashing and its scheduler's choices (not crypto/rand).
//     While the module loads, where workerd refuses crypto.getRandomValues,
//     that one read gets Math.random's bytes; any further read (crypto/rand,
//     which must have the real thing) throws, which stops this start. After
//     loading, every read is crypto.getRandomValues, as wasm_exec.js has it.
//   - runtime.nanotime1: Date.now(), kept from going back. wasm_exec.js
//     adds performance.now() to its origin, and performance.now() is 0 in
//     global scope and the epoch's milliseconds in a handler: Go's clock
//     would leap 56 years at the first request.
function startupSeed(go) {
  const gojs = go.importObject.gojs;
  const secure = gojs["runtime.getRandomData"];
  let seeded = false;
  gojs["runtime.getRandomData"] = (sp) => {
    if (!loading) return secure(sp);
    if (seeded) throw (go.refusal = new Error("random bytes asked for while the module loads (crypto/rand in a package initialiser?)"));
    seeded = true;
    sp >>>= 0;
    const p = go.mem.getUint32(sp + 8, true) + go.mem.getInt32(sp + 12, true) * 4294967296;
    const n = go.mem.getUint32(sp + 16, true) + go.mem.getInt32(sp + 20, true) * 4294967296;
    const bytes = new Uint8Array(go._inst.exports.mem.buffer, p, n);
    try {
      for (let i = 0; i < n; i++) bytes[i] = Math.floor(Math.random() * 256);
    } catch (err) {
      throw (go.refusal = err);
    }
  };
  let last = 0;
  gojs["runtime.nanotime1"] = (sp) => {
    last = Math.max(last, Date.now());
    const ns = last * 1000000;
    sp >>>= 0;
    go.mem.setUint32(sp + 8, ns, true);
    go.mem.setUint32(sp + 12, Math.floor(ns / 4294967296), true);
  };
}
