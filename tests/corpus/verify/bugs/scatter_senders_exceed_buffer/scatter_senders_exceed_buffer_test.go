// TestNotify runs the program the way a user would; `gordian verify -confirm`
// replays the model's counterexample on it (docs/verify.md, "Confirmation").
package scatter

import "testing"

func TestNotify(t *testing.T) {
	Notify(3, 1)
}
