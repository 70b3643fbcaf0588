// TestStream runs the program the way a user would; `gordian verify -confirm`
// replays the model's counterexample on it (docs/verify.md, "Confirmation").
package stream

import "testing"

func TestStream(t *testing.T) {
	Stream([]int{1, 2})
}
