// TestServe runs the program the way a user would; `gordian verify -confirm`
// replays the model's counterexample on it (docs/verify.md, "Confirmation").
package broker

import "testing"

func TestServe(t *testing.T) {
	Serve(true)
}
