// Braces on the next line or missing altogether.
package p

func f(x int) {
	if x > 0	// ERROR "unexpected newline, expected \{ after if clause"
	{
		x++
	}
	for i := 0; i < 10; i++	// ERROR "unexpected newline, expected \{ after for clause"
	{
	}
	switch x
	{
	}
	if x > 1 {
	} else
	{
	}
	if x > 2 return	// ERROR "unexpected keyword return, expected \{"
	for x < 3 x++	// ERROR "unexpected keyword for, expected expression"
}	// ERROR "unexpected \}, expected expression"

func g() {	// ERROR "unexpected \), expected \{ after for clause"
	if x := 1; x > 0 {
	} else if
	{	// ERROR "missing condition in if statement"
	}
}
