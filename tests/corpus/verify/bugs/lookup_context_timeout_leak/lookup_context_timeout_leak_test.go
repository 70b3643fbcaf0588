// TestLookup resolves at once, well before the deadline; `gordian verify`
// replays the counterexample in which the deadline comes first.
package lookup

import "testing"

func TestLookup(t *testing.T) {
	if a, err := Lookup("db"); err != nil || a != "db.local" {
		t.Fatalf("Lookup = %q, %v", a, err)
	}
}
