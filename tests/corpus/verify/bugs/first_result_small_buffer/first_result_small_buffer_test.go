// TestFirst runs the program the way a user would; `gordian verify -confirm`
// replays the model's counterexample on it (docs/verify.md, "Confirmation").
package first

import "testing"

func TestFirst(t *testing.T) {
	First([]int{1, 2, 3, 4})
}
