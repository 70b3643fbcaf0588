// TestFetch runs the program the way a user would; `gordian verify -confirm`
// replays the model's counterexample on it (docs/verify.md, "Confirmation").
package fetch

import "testing"

func TestFetch(t *testing.T) {
	Fetch(true)
}
