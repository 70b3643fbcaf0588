// TestWrite runs the program the way a user would; `gordian verify -confirm`
// replays the model's counterexample on it (docs/verify.md, "Confirmation").
package journal

import "testing"

func TestWrite(t *testing.T) {
	Write()
}
