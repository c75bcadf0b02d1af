// ledger.mjs — ApprovalLedger, the Durable Object that makes a state token
// single-use (issue 15). The Worker binds it as APPROVALS (the generated
// dist/worker/wrangler.jsonc declares the binding and its SQLite migration)
// and, on POST /v1/resume, calls spend(<state id>, <expiry ms>) on the object
// named after the token's id BEFORE anything runs (worker/cfworker/ledger_js.go):
//
//   true   first resume of this token: it may run
//   false  the token was already resumed (approved or declined): 409, nothing runs
//
// Why it is atomic: a Durable Object runs one event at a time, and spend
// inserts its row with one synchronous SQLite statement (INSERT … ON
// CONFLICT DO NOTHING RETURNING) before its first await, so no other call
// can interleave between the check and the write, wherever in the world the
// concurrent resumes come from. The answer leaves the object only after the
// write is durable (the output gate).
//
// Sharding: one object per token id (idFromName), so there is no hot object
// and a row never outlives its token for long: an alarm at the entry's expiry
// deletes it, and with it the object's whole storage.
//
// Agent teams (issue 18): a team that halts is too big for its token, so the
// Worker keeps its tree (agents.Runtime.Snapshot, JSON text) in the object
// named after the token's id: putTree(id, text, untilMs) on /v1/run, and
// takeTree(id) — read and delete at once — on the /v1/resume that spent the
// token. The alarm deletes a tree nobody resumed at untilMs; a tree past
// untilMs is never returned even before the alarm runs.

import { DurableObject } from "cloudflare:workers";

// Largest id accepted: state ids are "st_" + 32 hex digits.
const MAX_ID = 128;
// A tree is stored in rows of at most this many UTF-16 units (at most 3 bytes
// of UTF-8 each: under SQLite's 2 MB row limit on Durable Objects).
const CHUNK = 512 * 1024;
// Largest tree accepted (UTF-16 units).
const MAX_TREE = 32 * 1024 * 1024;

function checkID(method, id) {
  if (typeof id !== "string" || id.length === 0 || id.length > MAX_ID) {
    throw new TypeError(`ApprovalLedger.${method}: id must be a string of 1-${MAX_ID} characters`);
  }
}

function checkUntil(method, untilMs) {
  if (typeof untilMs !== "number" || !Number.isFinite(untilMs)) {
    throw new TypeError(`ApprovalLedger.${method}: untilMs must be a finite number`);
  }
}

export class ApprovalLedger extends DurableObject {
  // spend records id as used until untilMs (milliseconds since the epoch)
  // and reports whether this was its first use.
  // With key and entryText, the first use also records entryText (the
  // journal's entry of the answer, core/journal) as the first step of the
  // resume's journal, in the same transaction: a spent token's answer is
  // always recorded.
  // With owner and leaseMs the first use also takes the resume's lease
  // (claim).
  async spend(id, untilMs, key, entryText, owner, leaseMs) {
    checkID("spend", id);
    checkUntil("spend", untilMs);
    const sql = this.ctx.storage.sql;
    sql.exec("CREATE TABLE IF NOT EXISTS spent (id TEXT PRIMARY KEY, until_ms INTEGER NOT NULL, spent_ms INTEGER NOT NULL)");
    const fresh = this.ctx.storage.transactionSync(() => {
      const won = sql
        .exec("INSERT INTO spent (id, until_ms, spent_ms) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING RETURNING id", id, Math.ceil(untilMs), Date.now())
        .toArray().length === 1;
      if (won && key !== undefined) this.#step(id, key, entryText);
      if (won && owner !== undefined) this.#claim(id, owner, leaseMs);
      return won;
    });
    if (fresh) await this.#schedule();
    return fresh;
  }

  // claim takes (or renews) the lease on token id's resume for owner, for
  // leaseMs, and reports whether owner holds it: a resume holds it while it
  // runs, so a retry of a resume still running is refused, and one of a
  // resume whose Worker stopped (its lease lapsed) goes on from its journal.
  claim(id, owner, leaseMs) {
    checkID("claim", id);
    return this.ctx.storage.transactionSync(() => this.#claim(id, owner, leaseMs));
  }

  #claim(id, owner, leaseMs) {
    if (typeof owner !== "string" || owner.length === 0 || owner.length > 128) throw new TypeError("ApprovalLedger.claim: owner must be a string of 1-128 characters");
    if (!(leaseMs > 0 && leaseMs <= 600000)) throw new TypeError("ApprovalLedger.claim: leaseMs must be 1-600000");
    const sql = this.ctx.storage.sql;
    sql.exec("CREATE TABLE IF NOT EXISTS leases (id TEXT PRIMARY KEY, owner TEXT NOT NULL, until_ms INTEGER NOT NULL)");
    const now = Date.now();
    const held = sql.exec("SELECT owner, until_ms FROM leases WHERE id = ?", id).toArray()[0];
    if (held && held.owner !== owner && held.until_ms > now) return false;
    sql.exec("INSERT INTO leases (id, owner, until_ms) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET owner = excluded.owner, until_ms = excluded.until_ms", id, owner, now + leaseMs);
    return true;
  }

  // The journal of a token's resume (issue 31): every step /v1/resume (or
  // /v1/ui) took after the token was spent, so that a retry of a resume cut
  // off by a stopped Worker goes on from where it stopped — a recorded
  // outcome is used, an approved call whose outcome was lost is asked about
  // — instead of being refused with nothing said.

  // steps returns the journal's entries of token id, in order (none for a
  // token spent without one).
  steps(id) {
    checkID("steps", id);
    if (!this.#has("steps")) return [];
    return this.ctx.storage.sql.exec("SELECT v FROM steps WHERE id = ? ORDER BY seq", id).toArray().map((r) => r.v);
  }

  // step appends one entry; it throws "duplicate" for a key recorded.
  step(id, key, entryText) {
    checkID("step", id);
    this.ctx.storage.transactionSync(() => this.#step(id, key, entryText));
  }

  #step(id, key, entryText) {
    if (typeof key !== "string" || key.length === 0 || key.length > 1024) throw new TypeError("ApprovalLedger.step: key must be a string of 1-1024 characters");
    if (typeof entryText !== "string" || entryText.length > CHUNK) throw new TypeError(`ApprovalLedger.step: the entry must be a string of at most ${CHUNK} characters`);
    const sql = this.ctx.storage.sql;
    sql.exec("CREATE TABLE IF NOT EXISTS steps (id TEXT NOT NULL, seq INTEGER NOT NULL, k TEXT NOT NULL, v TEXT NOT NULL, PRIMARY KEY (id, seq), UNIQUE (id, k))");
    const seq = (sql.exec("SELECT MAX(seq) AS m FROM steps WHERE id = ?", id).one().m ?? 0) + 1;
    const fresh = sql.exec("INSERT INTO steps (id, seq, k, v) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING k", id, seq, key, entryText).toArray().length === 1;
    if (!fresh) throw new Error(`ApprovalLedger.step: duplicate: ${key} is recorded already`);
  }

  // entry returns {id, untilMs, spentMs} for a recorded id, or null: for
  // operators (and the tests) to look at the ledger. It writes nothing.
  entry(id) {
    if (!this.#has("spent")) return null;
    const row = this.ctx.storage.sql.exec("SELECT id, until_ms, spent_ms FROM spent WHERE id = ?", String(id)).toArray()[0];
    return row ? { id: row.id, untilMs: row.until_ms, spentMs: row.spent_ms } : null;
  }

  // putTree stores a halted agent team's tree (text) for the token id
  // until untilMs, replacing one stored before under that id.
  async putTree(id, text, untilMs) {
    checkID("putTree", id);
    checkUntil("putTree", untilMs);
    if (typeof text !== "string" || text.length === 0 || text.length > MAX_TREE) {
      throw new TypeError(`ApprovalLedger.putTree: the tree must be a string of 1-${MAX_TREE} characters`);
    }
    const sql = this.ctx.storage.sql;
    sql.exec("CREATE TABLE IF NOT EXISTS trees (id TEXT NOT NULL, seq INTEGER NOT NULL, chunk TEXT NOT NULL, until_ms INTEGER NOT NULL, PRIMARY KEY (id, seq))");
    sql.exec("DELETE FROM trees WHERE id = ?", id);
    for (let i = 0, seq = 0; i < text.length; i += CHUNK, seq++) {
      sql.exec("INSERT INTO trees (id, seq, chunk, until_ms) VALUES (?, ?, ?, ?)", id, seq, text.slice(i, i + CHUNK), Math.ceil(untilMs));
    }
    await this.#schedule();
  }

  // takeTree returns the tree stored for id and deletes it, in one event:
  // of two calls only one gets it. null when there is none or it expired.
  takeTree(id) {
    checkID("takeTree", id);
    if (!this.#has("trees")) return null;
    const sql = this.ctx.storage.sql;
    const rows = sql.exec("SELECT chunk, until_ms FROM trees WHERE id = ? ORDER BY seq", id).toArray();
    sql.exec("DELETE FROM trees WHERE id = ?", id);
    if (rows.length === 0 || rows[0].until_ms <= Date.now()) return null;
    return rows.map((r) => r.chunk).join("");
  }

  // tree returns {id, chars, chunks, untilMs} for a stored tree, or null:
  // for operators (and the tests) to look at what is kept. It writes nothing.
  tree(id) {
    if (!this.#has("trees")) return null;
    const row = this.ctx.storage.sql
      .exec("SELECT COUNT(*) AS chunks, SUM(LENGTH(chunk)) AS chars, MIN(until_ms) AS until_ms FROM trees WHERE id = ?", String(id)).one();
    return row.chunks > 0 ? { id: String(id), chars: row.chars, chunks: row.chunks, untilMs: row.until_ms } : null;
  }

  // alarm deletes the entries and trees past their expiry; when none is
  // left, the object's whole storage goes (deleteAll), so an expired token
  // leaves nothing behind.
  async alarm() {
    const now = Date.now();
    if (this.#has("spent")) this.ctx.storage.sql.exec("DELETE FROM spent WHERE until_ms <= ?", now);
    for (const table of ["steps", "leases"]) {
      if (this.#has(table)) this.ctx.storage.sql.exec(this.#has("spent") ? `DELETE FROM ${table} WHERE id NOT IN (SELECT id FROM spent)` : `DELETE FROM ${table}`);
    }
    if (this.#has("trees")) this.ctx.storage.sql.exec("DELETE FROM trees WHERE until_ms <= ?", now);
    if (this.#next() === null) {
      await this.ctx.storage.deleteAll();
      return;
    }
    await this.#schedule();
  }

  // #schedule sets the alarm to the earliest expiry of a row.
  async #schedule() {
    const next = this.#next();
    if (next === null) return;
    const current = await this.ctx.storage.getAlarm();
    if (current === null || current > next) await this.ctx.storage.setAlarm(next);
  }

  // #next is the earliest expiry of an entry or a tree, null when none.
  #next() {
    let next = null;
    for (const table of ["spent", "trees"]) {
      if (!this.#has(table)) continue;
      const t = this.ctx.storage.sql.exec(`SELECT MIN(until_ms) AS next FROM ${table}`).one().next;
      if (t != null && (next === null || t < next)) next = t;
    }
    return next;
  }

  #has(table) {
    return this.ctx.storage.sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", table).toArray().length > 0;
  }
}
