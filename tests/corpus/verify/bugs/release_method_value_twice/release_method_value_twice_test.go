// TestUpdate runs the program the way a user would; `gordian verify -confirm`
// replays the model's counterexample on it (docs/verify.md, "Confirmation").
package release

import "testing"

func TestUpdate(t *testing.T) {
	Update()
}
