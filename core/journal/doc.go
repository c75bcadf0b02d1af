// Package journal records a run step by step, so that a run cut off
// anywhere — a crash, an evicted Worker isolate, a deploy, a closed tab —
// is continued by core's Client.Continue without repeating a step that was
// recorded and without guessing about one that was not.
//
// A journal is an append-only list of entries. core records, in this order:
//
//	start     the run: its prompt after a history, or a halted transcript
//	          and the request it waits on (a resume)
//	model     a model call begins (turn, attempt)
//	turn      the model's reply, before any of its tool calls runs
//	call      a tool call begins (its attempt and idempotency key)
//	outcome   a tool call finished: the result the model will read
//	suspend   a call suspended on a Request (an approval, a relay call, …)
//	answer    an Answer to a Request, recorded before it takes effect
//	end       the run ended: done, incomplete or failed
//
// The rules a continuation follows (core applies them; Replay reads the
// entries into a State they are decided on):
//
//   - A recorded reply or outcome is used as recorded: the model is not
//     asked again, the tool does not run again.
//   - A model call that began without a recorded reply is made again, up
//     to MaxAttempts times in all.
//   - A call that began without a recorded outcome runs again when it
//     needs no approval, or when its tool is declared idempotent (with
//     the same idempotency key, "<run>:<call id>"). An approved call of
//     any other tool is never run again blindly: the run asks about it
//     with a Request of kind "outcome_unknown" — record a result, run it
//     again, or record it as failed.
//   - The first answer recorded for a request stands; a later one is
//     refused (ErrDuplicate) or, when a journal keeps it, ignored.
//
// Implementations keep entries in order and durably before Record
// returns, and refuse an entry whose Key is recorded already with
// ErrDuplicate (atomically: of two racing writers exactly one succeeds),
// which is what keeps two continuations of one run — two tabs, a retried
// request — from running one approved call twice. core calls Record from
// one goroutine at a time. Memory and, natively, File are two; the
// Worker keeps a run's journal in its Durable Object's SQLite, the tab in
// IndexedDB.
package journal
