// TestBatch runs the program the way a user would; `gordian verify -confirm`
// replays the model's counterexample on it (docs/verify.md, "Confirmation").
package batch

import "testing"

func TestBatch(t *testing.T) {
	Batch(2)
}
