// runs.mjs — RunLog, the Durable Object bound as RUNS that holds one durable
// run (issue 24): POST /v1/runs names one object per run id (idFromName) and
// the Worker (internal/cfworker/runs_js.go) keeps there
//
//   meta     the run's public state (GET /v1/runs/{id}: status, text, pending
//            with its approveURL) and its secret: the sealed state token of a
//            halted run, which carries the transcript and never leaves the
//            Worker;
//   events   the run's event log (seq, type, data), what GET
//            /v1/runs/{id}/events replays and follows;
//   answers  one row per answered request id with the decision: the first
//            answer wins (INSERT … ON CONFLICT DO NOTHING, one synchronous
//            statement, so racing approvers are serialised), and a later one
//            learns which decision won.
//
// events(after, waitMs) answers at once when there are events after `after`
// (or the run has ended); else it waits until append() brings some or waitMs
// passes, so any number of watchers follow the run live. An alarm deletes the
// object's whole storage at the run's untilMs.

import { DurableObject } from "cloudflare:workers";

const MAX_TEXT = 1024 * 1024; // one event or state (UTF-16 units)
const PAGE = 500; // events per events() answer
const MAX_WAIT = 30000;

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
    sql.exec("CREATE TABLE IF NOT EXISTS events (seq INTEGER PRIMARY KEY AUTOINCREMENT, type TEXT NOT NULL, data TEXT NOT NULL)");
    sql.exec("CREATE TABLE IF NOT EXISTS answers (req TEXT PRIMARY KEY, decision TEXT NOT NULL)");
    return sql;
  }

  // create starts the run's record (public state "running") and its alarm.
  async create(publicText, untilMs) {
    text("create", "publicText", publicText);
    const sql = this.#init();
    sql.exec("INSERT INTO meta (k, v) VALUES ('public', ?) ON CONFLICT (k) DO NOTHING", publicText);
    sql.exec("INSERT INTO meta (k, v) VALUES ('until', ?) ON CONFLICT (k) DO UPDATE SET v = excluded.v", String(Math.ceil(untilMs)));
    await this.ctx.storage.setAlarm(Math.ceil(untilMs));
  }

  // put replaces the public state and the secret ("" deletes it).
  put(publicText, secretText) {
    text("put", "publicText", publicText);
    text("put", "secretText", secretText, 32 * MAX_TEXT);
    const sql = this.#init();
    sql.exec("INSERT INTO meta (k, v) VALUES ('public', ?) ON CONFLICT (k) DO UPDATE SET v = excluded.v", publicText);
    if (secretText) sql.exec("INSERT INTO meta (k, v) VALUES ('secret', ?) ON CONFLICT (k) DO UPDATE SET v = excluded.v", secretText);
    else sql.exec("DELETE FROM meta WHERE k = 'secret'");
  }

  // get returns {public, secret, decision} (decision: the answer recorded for
  // req, or null), or null when there is no such run.
  get(req) {
    const sql = this.#init();
    const rows = Object.fromEntries(sql.exec("SELECT k, v FROM meta").toArray().map((r) => [r.k, r.v]));
    if (!rows.public) return null;
    const d = req ? sql.exec("SELECT decision FROM answers WHERE req = ?", String(req)).toArray()[0] : null;
    return { public: rows.public, secret: rows.secret ?? "", decision: d ? d.decision : null };
  }

  // append adds one event and wakes the watchers; it returns its seq.
  append(type, data) {
    text("append", "type", type, 64);
    text("append", "data", data);
    const sql = this.#init();
    const seq = sql.exec("INSERT INTO events (type, data) VALUES (?, ?) RETURNING seq", type, data).one().seq;
    if (type === "done" || type === "error") sql.exec("INSERT INTO meta (k, v) VALUES ('ended', '1') ON CONFLICT (k) DO NOTHING");
    for (const wake of this.#waiters) wake();
    this.#waiters.clear();
    return seq;
  }

  // events returns {events: [{seq, type, data}], ended} after seq `after`,
  // waiting up to waitMs for the first one.
  async events(after, waitMs) {
    const sql = this.#init();
    after = Number.isFinite(after) ? after : 0;
    const read = () => ({
      events: sql.exec("SELECT seq, type, data FROM events WHERE seq > ? ORDER BY seq LIMIT ?", after, PAGE).toArray(),
      ended: sql.exec("SELECT 1 FROM meta WHERE k = 'ended'").toArray().length > 0,
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

  // answer records decision for req when none is; it returns the decision
  // that stands (the new one when this call won).
  answer(req, decision) {
    text("answer", "req", req, 256);
    text("answer", "decision", decision, 64 * 1024);
    const sql = this.#init();
    const won = sql.exec("INSERT INTO answers (req, decision) VALUES (?, ?) ON CONFLICT (req) DO NOTHING RETURNING req", req, decision).toArray().length === 1;
    return { won, decision: won ? decision : sql.exec("SELECT decision FROM answers WHERE req = ?", req).one().decision };
  }

  async alarm() {
    const until = this.#init().exec("SELECT v FROM meta WHERE k = 'until'").toArray()[0];
    if (until && Number(until.v) > Date.now()) {
      await this.ctx.storage.setAlarm(Number(until.v));
      return;
    }
    await this.ctx.storage.deleteAll();
  }
}
