// Package web carries the browser modules the Worker serves itself: the
// approval page of a durable run's link (approve-page.mjs) and the approval
// dialog it shows, the same modules toolnexus.mjs loads in a page. Only the
// Worker's build imports it (worker/runs/link.go).
package web

import "embed"

// ApprovalPage holds approve-page.mjs and the dialog's modules.
//
//go:embed approve-page.mjs approval-dialog.mjs question-form.mjs elicit-form.mjs outcome-form.mjs outcome.mjs args-editor.mjs styles.mjs
var ApprovalPage embed.FS
