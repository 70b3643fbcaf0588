// A test package that does not compile: gordian test exits 2 and the
// compile error is shown once.
package broken

import "testing"

func TestBroken(t *testing.T) {
	undefinedThingInVerdictTest() //@error
}
