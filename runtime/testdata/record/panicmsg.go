// Expected: prints "recovered 3" then panics with "wrapped: EOF" (exit 2).
// Recorded Panic strings, in order: "boom" (errors.New), "(main.myErr)" (a
// user error type: its method is not called inside a panic), "(int)", then
// "wrapped: EOF" (fmt.Errorf).
package main

import (
	"errors"
	"fmt"
	"io"
)

type myErr struct{}

func (myErr) Error() string { return "my error" }

func try(v any) (ok bool) {
	defer func() { ok = recover() != nil }()
	panic(v)
}

func main() {
	n := 0
	for _, v := range []any{errors.New("boom"), myErr{}, 42} {
		if try(v) {
			n++
		}
	}
	fmt.Println("recovered", n)
	panic(fmt.Errorf("wrapped: %w", io.EOF))
}
