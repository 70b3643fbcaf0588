// Declarations with missing names, types or values, and a bad group.
package p

var x	// ERROR "unexpected newline, expected type"
var y = 
var = 1	// ERROR "unexpected keyword var, expected expression"
const c
const (
	a = iota
	b
	c int
	1
)	// ERROR "unexpected \) after top level declaration"
type T	// ERROR "unexpected newline in type declaration"
type = int	// ERROR "unexpected =, expected name"
type (
	U int
	V	// ERROR "unexpected newline in type declaration"
)
var (
	m, n int = 1, 2
	o p q	// ERROR "unexpected name q in grouped declaration; possibly missing semicolon or newline or \)"
)
