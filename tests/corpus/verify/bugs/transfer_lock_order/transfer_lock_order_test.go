// TestTransfer runs the program the way a user would; `gordian verify -confirm`
// replays the model's counterexample on it (docs/verify.md, "Confirmation").
package transfer

import "testing"

func TestTransfer(t *testing.T) {
	Transfer()
}
