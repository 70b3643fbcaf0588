// Parameter lists mixing named and unnamed parameters, misplaced ..., stray commas.
package p

func f1(a, b int, c) {}	// ERROR "missing parameter type"
func f2(a int, string) {}	// ERROR "missing parameter type"
func f3(a ...int, b int) {}	// ERROR "can only use \.\.\. with final parameter"
func f4(...int, ...string) {}	// ERROR "can only use \.\.\. with final parameter"
func f5(a, b) {}
func f6(a int,, b int) {}	// ERROR "unexpected comma, expected \)"
func f7(a int b int) {}	// ERROR "unexpected name b in parameter list; possibly missing comma or \)"
func f8() (a int, error) {}	// ERROR "missing parameter type"
func f9(int, string, ...bool) (int, bool) { return 0, false }
func f10(x [...]int) {}	// ERROR "unexpected \.\.\., expected expression"
