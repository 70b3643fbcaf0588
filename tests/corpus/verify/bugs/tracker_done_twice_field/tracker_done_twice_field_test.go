// TestRunAll runs the program the way a user would; `gordian verify -confirm`
// replays the model's counterexample on it (docs/verify.md, "Confirmation").
package tracker

import "testing"

func TestRunAll(t *testing.T) {
	RunAll(true)
}
