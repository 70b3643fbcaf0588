// Misplaced break/continue/fallthrough and bad labels and gotos (parsed with kCheckBranches).
package p

func f(x int) {
	break	// ERROR "break is not in a loop, switch, or select"
	continue	// ERROR "continue is not in a loop"
	fallthrough	// ERROR "fallthrough statement out of place"
L1:
	for {
		break L1
		continue L1
	}
L2:
	x++
	goto L3	// ERROR "goto L3 jumps over declaration of y at \S+"
	goto L4	// ERROR "label L4 not defined"
	y := 1
L3:
	_ = y
	{
	L5:
	}
	goto L5	// ERROR "goto L5 jumps into block starting at \S+"
	switch x {
	case 1:
		fallthrough
	case 2:
		{
			fallthrough	// ERROR "fallthrough statement out of place"
		}
	case 3:
		fallthrough	// ERROR "fallthrough statement out of place"
		x++
	default:
		fallthrough	// ERROR "cannot fallthrough final case in switch"
	}
	switch x.(type) {
	case int:
		fallthrough	// ERROR "cannot fallthrough in type switch"
	}
	select {
	default:
		break L2	// ERROR "invalid break label L2"
	}
	for {
		continue L6	// ERROR "continue label not defined: L6"
	}
L7:
	if x > 0 {
		break L7	// ERROR "invalid break label L7"
	}
}

func g() {
L:
L:	// ERROR "label L already defined at \S+"
	goto L
	func() {
		goto L	// ERROR "label L not defined"
	}()
}
