// if/for headers with var declarations, assignments instead of conditions; bad simple statements.
package p

func f(x, y int) {
	if var z = 1; z > 0 {	// ERROR "var declaration not allowed in if initializer"
	}
	if x = 1 {	// ERROR "cannot use assignment x = 1 as value"
	}
	if x == 1; {	// ERROR "missing condition in if statement"
	}
	if ; {	// ERROR "missing condition in if statement"
	}
	if {	// ERROR "missing condition in if statement"
	}
	for i := 0; i < 3; j := 1 {	// ERROR "cannot declare in post statement of for loop"
	}
	for var i = 0; i < 3; i++ {	// ERROR "var declaration not allowed in for initializer"
	}
	x, y	// ERROR "unexpected newline, expected := or = or comma"
	x, y := 1
	x ++ y	// ERROR "unexpected name y at end of statement"
	return 1 2	// ERROR "unexpected literal 2 at end of statement"
	goto
	L: 	// ERROR "unexpected : at end of statement"
}
