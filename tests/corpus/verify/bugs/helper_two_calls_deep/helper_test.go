// TestRun runs the program the way a user would; `gordian verify -confirm`
// replays the model's counterexample on it (docs/verify.md, "Confirmation").
package helper

import "testing"

func TestRun(t *testing.T) {
	Run(true)
}
