// Incomplete type expressions in type declarations.
package p

type A [
type B map[int]	// ERROR "unexpected keyword type, expected expression"
type C map int	// ERROR "unexpected name int, expected \["
type D []	// ERROR "unexpected keyword type, expected type"
type E *
type F func(int) (	// ERROR "unexpected keyword type, expected type"
type G interface{ m(); n() int; }
type H = struct{}
type J[P any] = []P
type K struct{}.x	// ERROR "unexpected \. after top level declaration"
