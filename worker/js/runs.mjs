// runs.mjs — RunLog, the Durable Object bound as RUNS that holds and runs one
// durable run (issues 24 and 31). POST /v1/runs names one object per run id
// (idFromName); the object keeps
//
//   journal  the run's journal (core/journal): one entry per step, in order,
//            each with its key; an entry whose key is there already is
//            refused ("duplicate"), so no step is recorded twice;
//   events   the event log GET /v1/runs/{id}/events replays and follows,
//            made from the journal and written with each entry;
//   meta     the public state (GET /v1/runs/{id}), the run's id and
//            settings, its expiry, and the executor's bookkeeping;
//   answers  one row per answered request with the decision: the first
//            answer wins (one synchronous transaction), and a later one
//            learns which decision won;
//   notes    what the executor keeps beside the journal (a halted team's
//            tree, the halts a webhook was told of).
//
// The run is run here, not by the request that started or answered it: the
// object's alarm calls the executor (this.drive, which worker.mjs supplies:
// the Go instance of this isolate, worker/runs/drive.go) whenever the run's
// status is "running" — after its start, after an answer, and after a life
// of the executor that did not finish (evicted, cut off by a deploy, out of
// time). Alarms are delivered at least once and one at a time; every step is
// keyed in the journal, so a second delivery repeats nothing. A life that
// makes no progress is retried with backoff; after MAX_STALLS the run ends
// with an error every watcher sees. An alarm at the run's expiry deletes the
// object's whole storage.

import { DurableObject } from "cloudflare:workers";

const MAX_TEXT = 1024 * 1024; // one event or state (UTF-16 units)
const CHUNK = 512 * 1024; // journal entries are stored in rows of at most this many UTF-16 units
const MAX_ENTRY = 32 * 1024 * 1024;
const PAGE = 500; // events per events() answer
const MAX_WAIT = 30000;
// LEASE_MS: a life of the executor sets the alarm this far ahead before it
// begins, so that a life lost with its isolate is followed by the next one
// that soon (measured on workerd: a restarted runtime delivers an alarm that
// is due at once, while the alarm that was running when the isolate died is
// not delivered again once a new one is set). Alarms of one object never
// overlap: a lease that falls due while its life still runs waits for it,
// and the life sets the next alarm itself when it ends.
const LEASE_MS = 2000;
// MAX_STALLS lives in a row that record nothing end the run.
const MAX_STALLS = 5;

function text(method, name, v, max = MAX_TEXT) {
  if (typeof v !== "string" || v.length > max) {
    throw new TypeError(`RunLog.${method}: ${name} must be a string of at most ${max} characters`);
  }
}

export class RunLog extends DurableObject {
  #waiters = new Set();

  #init() {
    const sql = this.ctx.storage.sql;
    sql.exec("CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v TEXT NOT NULL)");
    sql.exec("CREATE TABLE IF NOT EXISTS journal (seq INTEGER NOT NULL, part INTEGER NOT NULL, v TEXT NOT NULL, PRIMARY KEY (seq, part))");
    sql.exec("CREATE TABLE IF NOT EXISTS journal_keys (k TEXT PRIMARY KEY, seq INTEGER NOT NULL)");
    sql.exec("CREATE TABLE IF NOT EXISTS events (seq INTEGER PRIMARY KEY AUTOINCREMENT, type TEXT NOT NULL, data TEXT NOT NULL)");
    sql.exec("CREATE TABLE IF NOT EXISTS answers (req TEXT PRIMARY KEY, decision TEXT NOT NULL)");
    sql.exec("CREATE TABLE IF NOT EXISTS notes (k TEXT NOT NULL, part INTEGER NOT NULL, v TEXT NOT NULL, PRIMARY KEY (k, part))");
    return sql;
  }

  #meta(sql, k) {
    return sql.exec("SELECT v FROM meta WHERE k = ?", k).toArray()[0]?.v ?? null;
  }

  #setMeta(sql, k, v) {
    sql.exec("INSERT INTO meta (k, v) VALUES (?, ?) ON CONFLICT (k) DO UPDATE SET v = excluded.v", k, String(v));
  }

  // #append writes one journal entry (and its events and state) in the
  // current transaction; it throws "duplicate" for a key that is recorded.
  #append(sql, key, entryText, eventsJSON, publicText) {
    text("record", "key", key, 1024);
    text("record", "entry", entryText, MAX_ENTRY);
    const events = eventsJSON ? JSON.parse(eventsJSON) : [];
    if (!Array.isArray(events)) throw new TypeError("RunLog.record: events must be a JSON array");
    const seq = (sql.exec("SELECT MAX(seq) AS m FROM journal").one().m ?? 0) + 1;
    const fresh = sql.exec("INSERT INTO journal_keys (k, seq) VALUES (?, ?) ON CONFLICT (k) DO NOTHING RETURNING k", key, seq).toArray().length === 1;
    if (!fresh) throw new Error(`RunLog.record: duplicate: ${key} is recorded already`);
    for (let part = 0, i = 0; i < entryText.length || part === 0; part++, i += CHUNK) {
      sql.exec("INSERT INTO journal (seq, part, v) VALUES (?, ?, ?)", seq, part, entryText.slice(i, i + CHUNK));
    }
    for (const e of events) {
      text("record", "event type", e?.type, 64);
      text("record", "event data", e?.data);
      sql.exec("INSERT INTO events (type, data) VALUES (?, ?)", e.type, e.data);
      if (e.type === "done" || e.type === "error") this.#setMeta(sql, "ended", "1");
    }
    if (publicText) {
      text("record", "publicText", publicText);
      this.#setMeta(sql, "public", publicText);
      this.#setMeta(sql, "status", JSON.parse(publicText).status ?? "");
    }
    return seq;
  }

  #wake() {
    for (const wake of this.#waiters) wake();
    this.#waiters.clear();
  }

  // start records a new run: its first journal entry, its public state, its
  // settings and its expiry; the alarm then runs it. false: it exists.
  async start(runId, entryText, publicText, metaText, untilMs) {
    text("start", "runId", runId, 128);
    text("start", "metaText", metaText);
    const sql = this.#init();
    if (this.#meta(sql, "id") !== null) return false;
    this.ctx.storage.transactionSync(() => {
      this.#setMeta(sql, "id", runId);
      this.#setMeta(sql, "settings", metaText);
      this.#setMeta(sql, "until", Math.ceil(untilMs));
      this.#append(sql, "start", entryText, "[]", publicText);
    });
    await this.ctx.storage.setAlarm(Date.now());
    return true;
  }

  // get returns {public, meta, decision} (decision: the answer recorded for
  // req, or null), or null when there is no such run.
  get(req) {
    const sql = this.#init();
    const pub = this.#meta(sql, "public");
    if (pub === null) return null;
    const d = req ? sql.exec("SELECT decision FROM answers WHERE req = ?", String(req)).toArray()[0] : null;
    return { public: pub, meta: this.#meta(sql, "settings") ?? "", decision: d ? d.decision : null };
  }

  // events returns {events: [{seq, type, data}], ended} after seq `after`,
  // waiting up to waitMs for the first one.
  async events(after, waitMs) {
    const sql = this.#init();
    after = Number.isFinite(after) ? after : 0;
    const read = () => ({
      events: sql.exec("SELECT seq, type, data FROM events WHERE seq > ? ORDER BY seq LIMIT ?", after, PAGE).toArray(),
      ended: this.#meta(sql, "ended") !== null,
    });
    let out = read();
    if (out.events.length > 0 || out.ended || !(waitMs > 0)) return out;
    await new Promise((resolve) => {
      const t = setTimeout(done, Math.min(waitMs, MAX_WAIT));
      function done() { clearTimeout(t); resolve(); }
      this.#waiters.add(done);
    });
    return read();
  }

  // answer records decision for req when none is, with the journal's entry
  // of the answer (its events and the state after it), and has the alarm go
  // on with the run; it returns the decision that stands (the new one when
  // this call won).
  async answer(req, decision, key, entryText, eventsJSON, publicText) {
    text("answer", "req", req, 256);
    text("answer", "decision", decision, 64 * 1024);
    const sql = this.#init();
    const won = this.ctx.storage.transactionSync(() => {
      const fresh = sql.exec("INSERT INTO answers (req, decision) VALUES (?, ?) ON CONFLICT (req) DO NOTHING RETURNING req", req, decision).toArray().length === 1;
      if (fresh) this.#append(sql, key, entryText, eventsJSON, publicText);
      return fresh;
    });
    if (!won) return { won, decision: sql.exec("SELECT decision FROM answers WHERE req = ?", req).one().decision };
    this.#wake();
    await this.ctx.storage.setAlarm(Date.now());
    return { won, decision };
  }

  // The executor's (Go, in this object's isolate, through this.drive):

  // load returns the journal's entries, in order.
  load() {
    const sql = this.#init();
    const out = [];
    let seq = 0, cur = "";
    for (const row of sql.exec("SELECT seq, v FROM journal ORDER BY seq, part")) {
      if (row.seq !== seq && seq !== 0) { out.push(cur); cur = ""; }
      seq = row.seq;
      cur += row.v;
    }
    if (seq !== 0) out.push(cur);
    return out;
  }

  // record appends one entry with its events and the state after it, at once.
  record(key, entryText, eventsJSON, publicText) {
    const sql = this.#init();
    this.ctx.storage.transactionSync(() => this.#append(sql, key, entryText, eventsJSON, publicText));
    this.#wake();
  }

  note(key) {
    const rows = this.#init().exec("SELECT v FROM notes WHERE k = ? ORDER BY part", String(key)).toArray();
    return rows.length ? rows.map((r) => r.v).join("") : null;
  }

  setNote(key, value) {
    text("setNote", "key", key, 512);
    text("setNote", "value", value, MAX_ENTRY);
    const sql = this.#init();
    this.ctx.storage.transactionSync(() => {
      sql.exec("DELETE FROM notes WHERE k = ?", key);
      for (let part = 0, i = 0; i < value.length || part === 0; part++, i += CHUNK) {
        sql.exec("INSERT INTO notes (k, part, v) VALUES (?, ?, ?)", key, part, value.slice(i, i + CHUNK));
      }
    });
  }

  // runs reports the run's id, its status and how far its journal goes.
  #progress(sql) {
    return { id: this.#meta(sql, "id"), status: this.#meta(sql, "status"), seq: sql.exec("SELECT COUNT(*) AS n FROM journal_keys").one().n };
  }

  // drive runs one life of the executor; worker.mjs supplies it. It
  // resolves to {again}: true when the life stopped for time before the
  // run halted or ended.
  async drive(runId) {
    throw new Error(`RunLog.drive: no executor for run ${runId} (load RunLog through worker.mjs)`);
  }

  async alarm() {
    const sql = this.#init();
    const until = Number(this.#meta(sql, "until") ?? 0);
    if (until && until <= Date.now()) {
      await this.ctx.storage.deleteAll();
      return;
    }
    const before = this.#progress(sql);
    let wait = null;
    if (before.id && before.status === "running") {
      await this.ctx.storage.setAlarm(Date.now() + LEASE_MS);
      let again = false, why = "";
      try {
        again = (await this.drive(before.id))?.again === true;
      } catch (err) {
        why = String(err?.message ?? err).slice(0, 300);
      }
      const after = this.#progress(sql);
      let stalls = Number(this.#meta(sql, "stalls") ?? 0);
      stalls = after.seq > before.seq ? 0 : stalls + 1;
      this.#setMeta(sql, "stalls", stalls);
      if (stalls >= MAX_STALLS && after.status === "running") {
        this.#fail(sql, `the run made no progress in ${MAX_STALLS} tries${why ? ": " + why : ""}`);
      } else if (after.status === "running") {
        // Again at once after progress (or a life out of time), else
        // with backoff: 2, 4, 8, 16 s.
        wait = stalls === 0 || again ? 0 : 1000 * 2 ** stalls;
      }
    }
    await this.ctx.storage.setAlarm(wait !== null ? Date.now() + wait : until || Date.now() + 24 * 3600 * 1000);
  }

  // #fail ends the run with an error when the executor cannot.
  #fail(sql, message) {
    const at = Date.now();
    const entry = JSON.stringify({ kind: "end", at, status: "error", error: message });
    const error = { code: "run_stalled", message: `the run failed: ${message}` };
    const pub = JSON.stringify({ status: "error", error, step: { kind: "ended" }, progressAt: new Date(at).toISOString().replace(/\.\d+Z$/, "Z") });
    try {
      this.ctx.storage.transactionSync(() => this.#append(sql, "end", entry, JSON.stringify([{ type: "error", data: JSON.stringify({ error }) }]), pub));
    } catch { /* ended already */ }
    this.#wake();
  }
}
