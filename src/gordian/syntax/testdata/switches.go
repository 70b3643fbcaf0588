// switch and select clauses with missing colons, bad clause starts, missing braces.
package p

func f(x interface{}, ch chan int) {
	switch x {
	case 1	// ERROR "unexpected newline, expected :"
		x = 2
	case 2:
	default:
	}
	switch y := x.(type) {
	case int, string:
		_ = y
	}
	switch x
	}	// ERROR "unexpected \}, expected expression"
	select {
	case v := <-ch:
		_ = v
	case v, ok = <-ch:
	case ch <- 1:
	case <-ch:
	default:
	x
	}
	select x {	// ERROR "missing \{ after select clause"
	}
	switch {
	foo:	// ERROR "unexpected name foo, expected case or default or \}"
	}
}
