// Package workertest is what the Worker's packages share in their tests: the
// scripted model (ScriptedLLM) and its transport, the secrets a test Worker
// is configured with, and readers of the API's JSON answers. It imports no
// package of the Worker, so package worker's own tests use it as well as
// its products' tests do. Test support only; no main links it.
package workertest
