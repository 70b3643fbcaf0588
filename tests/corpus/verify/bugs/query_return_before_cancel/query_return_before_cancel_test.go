// TestQuery runs the program the way a user would; `gordian verify -confirm`
// replays the model's counterexample on it (docs/verify.md, "Confirmation").
package query

import "testing"

func TestQuery(t *testing.T) {
	Query(true)
}
