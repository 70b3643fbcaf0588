// Stray closing brackets and commas at top level and in statements.
package p

)	// ERROR "non-declaration statement outside function body"

func f() {
	x := 1 )	// ERROR "unexpected \) at end of statement"
	y := 2 ]	// ERROR "unexpected \] at end of statement"
	_ = x + y
}

}	// ERROR "non-declaration statement outside function body"

var v = 1 2	// ERROR "unexpected literal 2 after top level declaration"

func g() {
	a := [3]int{1, 2, 3}]	// ERROR "unexpected \] at end of statement"
	_ = a
	,	// ERROR "unexpected comma, expected \}"
}	// ERROR "unexpected \} after top level declaration"
