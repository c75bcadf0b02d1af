package once_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/core/once"
)

// An approval arrives twice (a double click, a redelivered webhook): the
// refund runs once, and the second answer is refused with nothing run.
func ExampleRunWithAnswer() {
	ctx := context.Background()
	refund := core.RequireApproval(core.NativeTool("refund", "Refund an order", nil,
		func(_ context.Context, args map[string]any) (string, error) {
			fmt.Println("refunding order", args["order"])
			return "refunded", nil
		}))
	tk, _ := core.CreateToolkit(ctx, core.Options{ExtraTools: []core.Tool{refund}})
	defer tk.Close()
	client := core.CreateGenerateClient(refundModel, core.ClientOptions{Model: "local"})
	halted, _ := client.Run(ctx, "refund order 42", tk) // no WaitFor: it halts "pending"

	store := once.NewMemoryStore() // once.NewDirStore(dir) across processes and restarts
	approve := core.Answer{ID: halted.Pending.ID, Ok: true}
	for i := 0; i < 2; i++ {
		res, err := once.RunWithAnswer(ctx, store, client, tk, halted.Messages, *halted.Pending, approve)
		switch {
		case errors.Is(err, once.ErrAnswered):
			fmt.Println("answered before: nothing ran")
		case err != nil:
			fmt.Println("error:", err)
		default:
			fmt.Println(res.Status, res.Text)
		}
	}
	// Output:
	// refunding order 42
	// done done
	// answered before: nothing ran
}
