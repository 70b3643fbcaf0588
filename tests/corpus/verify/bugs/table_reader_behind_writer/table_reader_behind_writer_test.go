// TestGrow runs the program the way a user would; `gordian verify -confirm`
// replays the model's counterexample on it (docs/verify.md, "Confirmation").
package table

import "testing"

func TestGrow(t *testing.T) {
	Grow(2)
}
