// TestGather runs the program the way a user would; `gordian verify -confirm`
// replays the model's counterexample on it (docs/verify.md, "Confirmation").
package gather

import "testing"

func TestGather(t *testing.T) {
	Gather(2)
}
