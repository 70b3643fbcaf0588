// TestWatch runs the program the way a user would; `gordian verify -confirm`
// replays the model's counterexample on it (docs/verify.md, "Confirmation").
package watch

import "testing"

func TestWatch(t *testing.T) {
	Watch(false)
}
