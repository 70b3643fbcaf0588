// Several errors in one file: the parser resynchronises after each.
package p

func f() {
	x := 
	y := 1	// ERROR "unexpected := at end of statement"
	z := y +* 2
}

func g() {
	for {
		if true {
			break
		}
	}
	var a int = = 1	// ERROR "unexpected =, expected expression"
	_ = a
}

func h() int {
	return 1 +
}	// ERROR "unexpected \}, expected expression"

var ok = 1

func k() {
	struct{}
	interface{}
	map[int]int
}
