// TestEmit runs the program the way a user would; `gordian verify -confirm`
// replays the model's counterexample on it (docs/verify.md, "Confirmation").
package emit

import "testing"

func TestEmit(t *testing.T) {
	Emit(2)
}
