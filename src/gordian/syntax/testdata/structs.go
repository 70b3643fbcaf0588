// Struct fields: parenthesized embedded types, bad fields, commas instead of semicolons.
package p

type S struct {
	a, b int `json:"a"`
	*E
	(F)	// ERROR "cannot parenthesize embedded type"
	*(G)	// ERROR "cannot parenthesize embedded type"
	(*H)	// ERROR "cannot parenthesize embedded type"
	pkg.T
	T[int]
	x [n]int
	1	// ERROR "unexpected literal 1, expected field name or embedded type"
	c int "tag" extra	// ERROR "unexpected name extra in struct type; possibly missing semicolon or newline or \}"
}

type S2 struct {
	a int
	b int,	// ERROR "unexpected comma in struct type; possibly missing semicolon or newline or \}"
}
