// TestOpen runs the program the way a user would; `gordian verify -confirm`
// replays the model's counterexample on it (docs/verify.md, "Confirmation").
package gate

import "testing"

func TestOpen(t *testing.T) {
	Open()
}
