//go:build linux || darwin

// Package stmts exercises every statement form.
package stmts

import (
	"errors"
	. "fmt"
	_ "os"
	str "strings"
)

//go:noinline
func F(xs ...int) (n int, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = errors.New(Sprint(r))
		}
	}()
outer:
	for i := range xs {
		switch x := xs[i]; {
		case x < 0:
			continue outer
		case x == 0:
			fallthrough
		case x > 100:
			break outer
		default:
			n += x
		}
	}
	var v interface{} = n
	switch t := v.(type) {
	case int, int64:
		n++
	case nil:
	case func(int) string, chan<- error:
		goto done
	}
	if n--; n > 10 {
		n *= 2
	} else if n < 0 {
		n = -n
	} else {
		n /= 3
	}
	for n > 0 {
		n >>= 1
	}
	for {
		break
	}
	for i := 0; i < 3; i++ {
	}
	for range 10 {
	}
	_ = str.ToUpper
	s := []int{1, 2, 3}[1:2:3]
	s = s[:]
	_, _ = s[1:], s[:1]
	p := &struct{ a, b int }{1, 2}
	p.a, p.b = p.b, p.a
	var arr [...]int
	_ = [...]string{2: "c", 0: "a"}
	_ = len(arr)
done:
	return n, nil
}

/* A general comment
   spanning lines. */
type (
	T1 int
	T2 = T1
	I  interface {
		M(int) (string, error)
		fmt_Stringer
	}
	fmt_Stringer interface{ String() string }
	S struct {
		T1
		*T2
		a, b int `tag:"x"`
		f    func(...interface{}) bool
	}
)

func (S) M()      {}
func (s *S) N() S { return *s }
