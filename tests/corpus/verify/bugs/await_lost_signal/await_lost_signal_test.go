// TestAwait runs the program the way a user would; `gordian verify -confirm`
// replays the model's counterexample on it (docs/verify.md, "Confirmation").
package await

import "testing"

func TestAwait(t *testing.T) {
	Await()
}
