// Function and method declarations without names, receivers or closing parenthesis.
package p

func (x T) () {}	// ERROR "unexpected \(, expected name"
func () m() {}	// ERROR "method has no receiver"
func (a, b T) m2() {}	// ERROR "method has multiple receivers"
func f1(
func f2() int {	// ERROR "unexpected name f2, expected \("
	return 1
}	// ERROR "unexpected \} in parameter list; possibly missing comma or \)"
func f3() { return }
func 1() {}	// ERROR "unexpected literal 1, expected name or \("
