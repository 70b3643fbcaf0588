// Composite literals in if/for/switch headers (allowed only when parenthesized or nested).
package p

type T struct{ a int }

func f() {
	if x := T{}; x.a > 0 {	// ERROR "cannot use x := T as value"
	}
	if x == T{} {	// ERROR "non-declaration statement outside function body"
	}
	if x == (T{}) {
	}
	for _, v := range []T{{1}} {
		_ = v
	}
	switch T{} {
	}
	for x := range T{}.a {
	}
	if x := (T{a: 1}); x.a > 0 {
	}
	if f(T{}) {
	}
}
