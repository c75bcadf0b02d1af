// bridge-host.mjs — the JS half of jsbridge's narrow boundary (jsbridge/host.go).
// A loader makes one host per Go instance and sets it as
// globalThis.__toolnexusHost before go.run(instance):
//
//   globalThis.__toolnexusHost = bridgeHost(go);
//
// toolnexus.mjs does this in browsers and Node; a Worker's entry can do the
// same. Without a host jsbridge works through syscall/js alone, more slowly.
//
// Go calls these methods with numbers only (ids, slots, pointers and lengths
// into the wasm memory), so no call makes a js.Value that Go must finalize.
// Every operation has an id. Its outcome is a code and up to two byte parts;
// it is written into Go's 4-word reply block (ready, code, len0, len1) when it
// is known before the call returns, or handed over later by the wasm export
// toolnexus_settle(id, code, len0, len1) and a resume of the Go scheduler.
// Go then copies the parts into its own memory with take(id, ptr0, ptr1).
// len1 = -1 marks a response body that is a stream, read with read().
// Nothing here throws into Go: failures are codes.

export function bridgeHost(go) {
  const enc = new TextEncoder();
  const dec = new TextDecoder();
  const slots = []; // registered fetch functions and tools
  const held = new Map(); // id → [part0, part1] until take
  const streams = new Map(); // id → {reader, ctrl}
  const aborts = new Map(); // id → AbortController of an in-flight fetch
  const empty = new Uint8Array(0);
  // Views over the wasm memory, made again only when it grows (a new view
  // per call showed in profiles).
  let buf = null, u8 = null, i32 = null;
  const views = () => {
    const b = go._inst.exports.mem.buffer;
    if (b !== buf) [buf, u8, i32] = [b, new Uint8Array(b), new Int32Array(b)];
  };
  const bytes = (p, n) => (views(), u8.subarray(p, p + n));
  // Decoding reads through a DataView: Chromium's TextDecoder took 2–6× as
  // long for a Uint8Array over the wasm memory (0.6 vs 3.4 µs for 80 bytes).
  const dataView = (p, n) => (views(), new DataView(buf, p, n));
  const text = (p, n) => (n ? dec.decode(dataView(p, n)) : "");
  // A body that is UTF-8 text (every request core makes is JSON) goes to
  // fetch as a string: a new 100 kB ArrayBuffer per request cost 20–300 µs
  // in Node (allocation), a string 30 µs. Other bytes go as a Uint8Array.
  const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  const bodyOf = (p, n) => {
    try {
      return strict.decode(dataView(p, n));
    } catch {
      const copy = new Uint8Array(n);
      copy.set(bytes(p, n)); // set, not slice(): slice() on wasm memory is 10× slower
      return copy;
    }
  };
  const message = (e) => enc.encode(typeof e?.message === "string" ? e.message : e == null ? "rejected without a reason" : String(e));

  // reply answers within the call; settle answers later.
  const reply = (id, out, code, a = empty, b = empty, len1 = b.length) => {
    held.set(id, [a, b]);
    views();
    const w = out >> 2;
    i32[w] = 1;
    i32[w + 1] = code;
    i32[w + 2] = a.length;
    i32[w + 3] = len1;
  };
  const settle = (id, code, a = empty, b = empty, len1 = b.length) => {
    if (go.exited) return;
    held.set(id, [a, b]);
    if (!go._inst.exports.toolnexus_settle(id, code, a.length, len1)) held.delete(id); // Go stopped waiting
    go._resume();
  };

  // response hands Go a fetch's status, headers (only those named in read,
  // when it names them) and body.
  async function response(id, res, ctrl, read) {
    if (!res || typeof res.status !== "number") throw new Error("fetch resolved to something that is not a Response");
    const h = {};
    if (read && typeof res.headers?.get === "function") {
      for (const k of read) {
        const v = res.headers.get(k);
        if (v != null) h[k] = v;
      }
    } else res.headers?.forEach?.((v, k) => { h[k.toLowerCase()] = v; });
    const headers = enc.encode(JSON.stringify(h));
    if ((h["content-type"] ?? "").startsWith("text/event-stream") && typeof res.body?.getReader === "function") {
      streams.set(id, { reader: res.body.getReader(), ctrl });
      return settle(id, res.status, headers, empty, -1);
    }
    const body = new Uint8Array(await res.arrayBuffer());
    aborts.delete(id);
    settle(id, res.status, headers, body);
  }

  const deferreds = new Map(); // id → [resolve, reject] of a Promise Go settles
  // Channels carry messages the loader posts to Go (post); Go waits for the
  // next one with listen. Each has at most one listener and a queue.
  const channels = new Map(); // number → {listener: op id or null, queue: [[code, a, b]]}
  const channel = (n) => {
    let c = channels.get(n);
    if (!c) channels.set(n, (c = { listener: null, queue: [] }));
    return c;
  };

  return {
    /**
     * post(chan, code, a?, b?) hands Go a message on channel chan (a number):
     * its listener gets it at once (Go runs before post returns), or the
     * next listen does. For the loader (a Worker's requests), not for Go.
     */
    post(chan, code, a = empty, b = empty) {
      const c = channel(chan);
      if (c.listener == null) return void c.queue.push([code, a, b]);
      const id = c.listener;
      c.listener = null;
      settle(id, code, a, b);
    },
    /** listen(id, out, chan): op id is the next message on chan (post). */
    listen(id, out, chan) {
      const c = channel(chan);
      if (c.queue.length) return reply(id, out, ...c.queue.shift());
      c.listener = id;
    },
    /** unlisten(chan): Go stopped waiting on chan. */
    unlisten(chan) {
      channel(chan).listener = null;
    },
    /** deferred(id) → a Promise that resolve(id, …) or reject(id, …) settles. */
    deferred(id) {
      return new Promise((resolve, reject) => deferreds.set(id, [resolve, reject]));
    },
    resolve(id, v) {
      deferreds.get(id)?.[0](v);
      deferreds.delete(id);
    },
    /** resolveText(id, ptr, len): resolves with UTF-8 text read from Go's memory. */
    resolveText(id, p, n) {
      deferreds.get(id)?.[0](text(p, n));
      deferreds.delete(id);
    },
    reject(id, e) {
      deferreds.get(id)?.[1](e);
      deferreds.delete(id);
    },
    /** register(fn, name?) → slot: a fetch function or a tool's run. */
    register(fn, name) {
      slots.push({ fn, name });
      return slots.length - 1;
    },
    /** release(slot): Go dropped what the slot was registered for. */
    release(slot) {
      slots[slot] = null;
    },
    /** take(id, ptr0, ptr1) copies an outcome's parts into Go's buffers. */
    take(id, p0, p1) {
      const parts = held.get(id);
      held.delete(id);
      if (!parts) return;
      views();
      if (parts[0].length) u8.set(parts[0], p0);
      if (parts[1].length) u8.set(parts[1], p1);
    },
    /**
     * fetch: meta is JSON {url, method, headers, read?} (read: the reply
     * headers Go reads; all when absent); metaN -1 means the slot's meta of
     * its last call. Outcome: code = HTTP status, parts = headers JSON and
     * body (len1 -1: a stream); code -1 = failed, part0 = the message.
     */
    fetch(id, out, slot, metaP, metaN, bodyP, bodyN, abortable) {
      try {
        const s = slots[slot];
        const m = metaN < 0 ? s.meta : (s.meta = JSON.parse(text(metaP, metaN)));
        // A copy of the headers: a fetch of the page's may add to them, and m serves the slot's next call.
        const init = { method: m.method, headers: { ...m.headers } };
        if (bodyN) init.body = bodyOf(bodyP, bodyN);
        let ctrl;
        if (abortable && typeof AbortController === "function") {
          ctrl = new AbortController();
          init.signal = ctrl.signal;
          aborts.set(id, ctrl);
        }
        const fetch = s.fn; // called without a this: a page's fetch refuses any other
        Promise.resolve(fetch(m.url, init))
          .then((res) => response(id, res, ctrl, m.read))
          .catch((e) => { aborts.delete(id); settle(id, -1, message(e)); });
      } catch (e) {
        aborts.delete(id);
        reply(id, out, -2, message(e)); // a synchronous throw
      }
    },
    /**
     * text(s, ptr, cap) writes the string s as UTF-8 into Go's buffer and
     * returns the byte count; when it does not fit, -1 - the size to retry
     * with (the UTF-16 length, exact for ASCII, then 3 bytes per unit).
     * wasm_exec.js's way, encode() then a copy, allocates an ArrayBuffer
     * per string: slow for a 100 kB history.
     */
    text(s, p, cap) {
      const { read, written } = enc.encodeInto(s, bytes(p, cap));
      if (read === s.length) return written;
      return -1 - (cap < s.length ? s.length : 3 * s.length);
    },
    /** abort(id) aborts a fetch whose outcome Go no longer waits for. */
    abort(id) {
      aborts.get(id)?.abort();
      aborts.delete(id);
    },
    /** read(id, out, stream): the next chunk. code 1 = a chunk in part0, 0 = the end, -1 = failed. */
    read(id, out, stream) {
      const s = streams.get(stream);
      if (!s) return reply(id, out, -1, message("read after close"));
      s.reader.read().then(
        ({ done, value }) => {
          if (done) {
            streams.delete(stream);
            aborts.delete(stream);
          }
          settle(id, done ? 0 : 1, done ? empty : value instanceof Uint8Array ? value : new Uint8Array(value));
        },
        (e) => {
          streams.delete(stream);
          aborts.delete(stream);
          settle(id, -1, message(e));
        },
      );
    },
    /** close(stream) cancels a stream not read to its end, aborting its fetch. */
    close(stream) {
      const s = streams.get(stream);
      streams.delete(stream);
      aborts.delete(stream);
      if (!s) return;
      s.reader.cancel().catch(() => {}); // rejects when the fetch was aborted: expected
      s.ctrl?.abort();
    },
    /**
     * tool: runs a registered tool with args (JSON) and ctx {callId,
     * toolName, answer, idempotencyKey}. code 0 = part0 is the output text; 1 = part0 is a
     * result object's JSON {output, isError, metadata}; 2 = it threw or
     * rejected, part0 = the message.
     */
    tool(id, out, slot, argsP, argsN, callP, callN, answerP, answerN, keyP = 0, keyN = 0) {
      const { fn, name } = slots[slot];
      const done = (code, part) => (out ? reply(id, out, code, part) : settle(id, code, part));
      const result = (v) => {
        try {
          if (typeof v === "string") return done(0, enc.encode(v));
          if (v == null) return done(0, empty);
          if (typeof v === "object" && (v.output !== undefined || v.isError !== undefined)) return done(1, enc.encode(JSON.stringify(v)));
          done(0, enc.encode(JSON.stringify(v) ?? ""));
        } catch (e) {
          done(2, message(e));
        }
      };
      let v;
      try {
        v = fn(argsN ? JSON.parse(text(argsP, argsN)) : {},
          { callId: text(callP, callN), toolName: name, answer: answerN ? JSON.parse(text(answerP, answerN)) : null,
            idempotencyKey: text(keyP, keyN) });
      } catch (e) {
        return done(2, message(e));
      }
      if (v !== null && typeof v === "object" && typeof v.then === "function") {
        out = 0; // settled later
        Promise.resolve(v).then(result, (e) => done(2, message(e)));
        return;
      }
      result(v);
    },
  };
}
