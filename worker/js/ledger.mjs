// ledger.mjs — ApprovalLedger, the Durable Object that makes a state token
// single-use (issue 15). The Worker binds it as APPROVALS (the generated
// dist/worker/wrangler.jsonc declares the binding and its SQLite migration)
// and, on POST /v1/resume, calls spend(<state id>, <expiry ms>) on the object
// named after the token's id BEFORE anything runs (worker/ledger_js.go):
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

import { DurableObject } from "cloudflare:workers";

// Largest id accepted: state ids are "st_" + 32 hex digits.
const MAX_ID = 128;

export class ApprovalLedger extends DurableObject {
  // spend records id as used until untilMs (milliseconds since the epoch)
  // and reports whether this was its first use.
  async spend(id, untilMs) {
    if (typeof id !== "string" || id.length === 0 || id.length > MAX_ID) {
      throw new TypeError(`ApprovalLedger.spend: id must be a string of 1-${MAX_ID} characters`);
    }
    if (typeof untilMs !== "number" || !Number.isFinite(untilMs)) {
      throw new TypeError("ApprovalLedger.spend: untilMs must be a finite number");
    }
    const sql = this.ctx.storage.sql;
    sql.exec("CREATE TABLE IF NOT EXISTS spent (id TEXT PRIMARY KEY, until_ms INTEGER NOT NULL, spent_ms INTEGER NOT NULL)");
    const fresh = sql
      .exec("INSERT INTO spent (id, until_ms, spent_ms) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING RETURNING id", id, Math.ceil(untilMs), Date.now())
      .toArray().length === 1;
    if (fresh) await this.#schedule();
    return fresh;
  }

  // entry returns {id, untilMs, spentMs} for a recorded id, or null: for
  // operators (and the tests) to look at the ledger. It writes nothing.
  entry(id) {
    if (!this.#hasTable()) return null;
    const row = this.ctx.storage.sql.exec("SELECT id, until_ms, spent_ms FROM spent WHERE id = ?", String(id)).toArray()[0];
    return row ? { id: row.id, untilMs: row.until_ms, spentMs: row.spent_ms } : null;
  }

  // alarm deletes the entries past their expiry; when none is left, the
  // object's whole storage goes (deleteAll), so an expired token leaves
  // nothing behind.
  async alarm() {
    if (!this.#hasTable()) {
      await this.ctx.storage.deleteAll();
      return;
    }
    this.ctx.storage.sql.exec("DELETE FROM spent WHERE until_ms <= ?", Date.now());
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

  #next() {
    const row = this.ctx.storage.sql.exec("SELECT MIN(until_ms) AS next FROM spent").one();
    return row.next ?? null;
  }

  #hasTable() {
    return this.ctx.storage.sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'spent'").toArray().length > 0;
  }
}
