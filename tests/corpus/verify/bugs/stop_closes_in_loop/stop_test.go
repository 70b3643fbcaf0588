// TestStop runs the program the way a user would; `gordian verify -confirm`
// replays the model's counterexample on it (docs/verify.md, "Confirmation").
package stop

import "testing"

func TestStop(t *testing.T) {
	Stop(2)
}
