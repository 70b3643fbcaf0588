package generic

import "cmp"

type Number interface {
	~int | ~int64 | ~float64
}

type Pair[K comparable, V any] struct {
	Key K
	Val V `json:"val,omitempty"`
}

type List[T any] struct {
	next *List[T]
	val  T
}

func Max[T cmp.Ordered](a, b T) T {
	if a > b {
		return a
	}
	return b
}

func Sum[S ~[]E, E Number](s S) (total E) {
	for _, v := range s {
		total += v
	}
	return
}

func (l *List[T]) Push(v T) *List[T] { return &List[T]{l, v} }

var _ = Max[int](1, 2)
var m = map[string]Pair[string, []int]{"a": {Key: "a", Val: []int{1, 2, 3}}}

type Set[T comparable] = map[T]struct{}
