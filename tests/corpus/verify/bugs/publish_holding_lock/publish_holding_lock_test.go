// TestPublish runs the program the way a user would; `gordian verify -confirm`
// replays the model's counterexample on it (docs/verify.md, "Confirmation").
package publish

import "testing"

func TestPublish(t *testing.T) {
	Publish()
}
