// Type parameter lists, constraints, instantiations and where type parameters are not allowed.
package p

type T1[P any, Q] struct{}	// ERROR "missing type constraint"
type T2[P any,] struct{}
type T3[] int
type T4[P ~int | ~string, Q interface{ ~[]P }] struct{}
type T5[P *Q, Q any] struct{}

func f1[]() {}	// ERROR "empty type parameter list"
func f2[P any, Q]() {}	// ERROR "missing type constraint"
func f3[P, Q any](p P, q Q) {}

func (r T1[P, Q]) m1[R any]() {}	// ERROR "method must have no type parameters"

type I interface {
	m[P any]()	// ERROR "interface method must have no type parameters"
	m2[]()	// ERROR "empty type parameter list"
	E[int]
	~int | ~string
}

func g() {
	_ = f3[int, string]
	_ = f3[]	// ERROR "unexpected \], expected operand"
	var _ func[P any]()	// ERROR "function type must have no type parameters"
	_ = T1[int, string]{}
}
