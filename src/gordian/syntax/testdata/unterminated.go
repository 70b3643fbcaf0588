// A file that ends in the middle of a function: one error, no cascade.
package p

func f() {
	x := []int{1, 2,
	if x {	// ERROR "unexpected keyword if, expected expression"
		for {
