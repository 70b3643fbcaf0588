// TestMaintain runs the program the way a user would; `gordian verify -confirm`
// replays the model's counterexample on it (docs/verify.md, "Confirmation").
package index

import "testing"

func TestMaintain(t *testing.T) {
	Maintain()
}
