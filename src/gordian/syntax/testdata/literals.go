// Scanner errors in literals reach the handler through the parser.
package p

var b = 'ab'	// ERROR "more than one character in rune literal"
var c = 0x	// ERROR "hexadecimal literal has no digits"
var d = 1e	// ERROR "exponent has no digits"
var f = "\q"	// ERROR "unknown escape"
var g = @1	// ERROR "invalid character U\+0040"
var h = 0b102	// ERROR "invalid digit '2' in binary literal"

func f() {
	x := 'ab' + 1	// ERROR "more than one character in rune literal"
	_ = x
}

var e = /* ERROR "not terminated" */ `raw
