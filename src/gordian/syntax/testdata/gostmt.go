// go and defer statements.
package p

func f() {
	go (f())	// ERROR "expression in go must not be parenthesized"
	defer (f())	// ERROR "expression in defer must not be parenthesized"
	go f
	defer func() {}()
	go func() {}
	defer
}	// ERROR "unexpected \}, expected expression"
