// Index, slice, selector, assertion and operand errors.
package p

func f(x []int, m map[string]int) {
	_ = x[1:2:]	// ERROR "final index required in 3-index slice"
	_ = x[::3]	// ERROR "middle index required in 3-index slice"
	_ = x[1::3]	// ERROR "middle index required in 3-index slice"
	_ = x[]	// ERROR "unexpected \], expected operand"
	_ = x[1 2]	// ERROR "unexpected literal 2, expected comma, : or \]"
	_ = m.1	// ERROR "unexpected literal \.1 at end of statement"
	_ = x.(
	_ = * 	// ERROR "unexpected =, expected \)"
	_ = a.(type)	// ERROR "unexpected = at end of statement"
	_ = f(1, 2,
	_ = !	// ERROR "unexpected = in argument list; possibly missing comma or \)"
}

func g() {
	_ = 1 + * 2
	_ = [...]int{1, 2}
	_ = struct{ a int }{a: 1}
	_ = func() {}
	_ = map[string]int{"a": 1}
	_ = x.(int)
}
