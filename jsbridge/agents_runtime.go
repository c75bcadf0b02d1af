//go:build js && wasm

package jsbridge

import (
	"context"
	"errors"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"syscall/js"
	"time"

	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/core/agents"
)

// runtimeHandle wraps a Runtime for JS. Handles cross as their ids
// ("root/support.1"), which every verb takes — from run or spawn, from
// list(), or from a pending request's data.handle — so a restored runtime
// is driven like the one it was snapshotted from. "" (or null) is the root,
// which spawn and close take; the verbs of a running agent refuse it.
//
//	run(prompt, signal?)         the agent under root: spawn, wake, wait
//	spawn(parentId, name, budget?) handle id      post(id, text, channel?)
//	wake(id, prompt)  wait(id, timeoutMs)  interrupt(id)  close(id?, force?)
//	list()  inspect(id)  resume(answerJSON)  snapshot()
func runtimeHandle(rt *agents.Runtime, agent string, d *dialogs) js.Value {
	find := func(v js.Value) (*agents.Handle, error) {
		if v.IsUndefined() || v.IsNull() {
			return rt.Root, nil
		}
		if v.Type() != js.TypeString {
			return nil, fmt.Errorf("a handle is an id string (from run, spawn or list), not a %s", v.Type())
		}
		id := v.String()
		if id == "" {
			return rt.Root, nil
		}
		h, ok := rt.Handle(id)
		if !ok {
			return nil, fmt.Errorf("no handle %q in this runtime (list() shows its ids)", id)
		}
		return h, nil
	}
	// findAgent is find for the verbs that need an agent: the root runs no
	// turns (a wait on it would never return).
	findAgent := func(v js.Value) (*agents.Handle, error) {
		h, err := find(v)
		if err == nil && h == rt.Root {
			return nil, errors.New("the root runs no turns: give a handle id from run, spawn or list()")
		}
		return h, err
	}
	h := jsObject.New()
	var fns []js.Func
	set := func(name string, fn func([]js.Value) (any, error)) {
		f := asyncMethod(fn)
		fns = append(fns, f)
		h.Set(name, f)
	}
	set("run", func(args []js.Value) (any, error) {
		prompt := argAt(args, 0)
		if prompt.Type() != js.TypeString {
			return nil, errors.New("run: prompt must be a string")
		}
		top, err := rt.Spawn(rt.Root, agent, nil)
		if err != nil {
			return taskResultJSON(agents.TaskResult{Text: err.Error(), IsError: true, Status: agents.TaskStatusError}), nil
		}
		ctx, stop := contextFor(argAt(args, 1))
		defer stop()
		// An aborted signal closes its open dialogs and interrupts the turn:
		// Wait then settles "interrupted".
		done := context.AfterFunc(ctx, func() {
			rt.Interrupt(top)
			d.closeAll()
		})
		defer done()
		rt.Wake(top, prompt.String())
		return taskResultJSON(rt.Wait(top, 0)), nil
	})
	set("spawn", func(args []js.Value) (any, error) {
		parent, err := find(argAt(args, 0))
		if err != nil {
			return nil, fmt.Errorf("spawn: %w", err)
		}
		name := argAt(args, 1)
		if name.Type() != js.TypeString {
			return nil, fmt.Errorf("spawn: the agent name must be a string, not a %s", name.Type())
		}
		var budget *agents.Budget
		if b := argAt(args, 2); !b.IsUndefined() && !b.IsNull() {
			if budget, err = budgetFromJS(b); err != nil {
				return nil, fmt.Errorf("spawn: %w", err)
			}
		}
		child, err := rt.Spawn(parent, name.String(), budget)
		if err != nil {
			return nil, fmt.Errorf("spawn: %w", err)
		}
		return child.ID, nil
	})
	set("post", func(args []js.Value) (any, error) {
		target, err := findAgent(argAt(args, 0))
		if err != nil {
			return nil, fmt.Errorf("post: %w", err)
		}
		item := agents.InboxItem{From: "external", Channel: jsString(argAt(args, 2)), Text: jsString(argAt(args, 1))}
		if item.Channel == "" {
			item.Channel = "external"
		}
		return postResultJSON(rt.Post(target, item)), nil
	})
	set("wake", func(args []js.Value) (any, error) {
		target, err := findAgent(argAt(args, 0))
		if err != nil {
			return nil, fmt.Errorf("wake: %w", err)
		}
		return postResultJSON(rt.Wake(target, jsString(argAt(args, 1)))), nil
	})
	set("wait", func(args []js.Value) (any, error) {
		target, err := findAgent(argAt(args, 0))
		if err != nil {
			return nil, fmt.Errorf("wait: %w", err)
		}
		ms, err := msArg(argAt(args, 1), "wait: timeoutMs")
		if err != nil {
			return nil, err
		}
		return taskResultJSON(rt.Wait(target, msDuration(ms))), nil
	})
	set("interrupt", func(args []js.Value) (any, error) {
		target, err := findAgent(argAt(args, 0))
		if err != nil {
			return nil, fmt.Errorf("interrupt: %w", err)
		}
		rt.Interrupt(target)
		return nil, nil
	})
	set("close", func(args []js.Value) (any, error) {
		target, err := find(argAt(args, 0))
		if err != nil {
			return nil, fmt.Errorf("close: %w", err)
		}
		rt.Close(target, &agents.CloseOptions{Force: argAt(args, 1).Truthy()})
		return nil, nil
	})
	set("list", func([]js.Value) (any, error) { return viewsJSON(rt.List()), nil })
	set("inspect", func(args []js.Value) (any, error) {
		target, err := find(argAt(args, 0))
		if err != nil {
			return nil, fmt.Errorf("inspect: %w", err)
		}
		return viewsJSON([]agents.HandleView{rt.Inspect(target)}), nil
	})
	set("resume", func(args []js.Value) (any, error) {
		var answer core.Answer
		if err := answer.UnmarshalJSON([]byte(jsString(argAt(args, 0)))); err != nil {
			return nil, fmt.Errorf("resume: the answer is not an Answer: %w", err)
		}
		r, err := rt.Resume(answer)
		if err != nil {
			return nil, fmt.Errorf("resume: %w", err)
		}
		return taskResultJSON(r), nil
	})
	set("snapshot", func([]js.Value) (any, error) {
		b, err := rt.Snapshot()
		if err != nil {
			return nil, fmt.Errorf("snapshot: %w", err)
		}
		return string(b), nil
	})
	// release drops the JS functions once the runtime is closed for good.
	set("release", func([]js.Value) (any, error) {
		d.closeAll()
		rt.Close(rt.Root, nil)
		go func() {
			for _, f := range fns {
				f.Release()
			}
		}()
		return nil, nil
	})
	return h
}

func msDuration(ms int64) time.Duration { return time.Duration(ms) * time.Millisecond }
