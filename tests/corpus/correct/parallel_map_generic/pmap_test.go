// A generic parallel map that keeps the order of its input: each goroutine
// writes only its own slot of the result slice, and the caller reads the slice
// after wg.Wait. Errors are collected the same way. No channel is involved, no
// lock is needed, and all goroutines are joined. Expected: no findings.
package pmap

import (
	"errors"
	"strconv"
	"sync"
	"testing"
)

func Map[T, U any](in []T, f func(T) (U, error)) ([]U, error) {
	out := make([]U, len(in))
	errs := make([]error, len(in))
	var wg sync.WaitGroup
	for i, v := range in {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i], errs[i] = f(v)
		}()
	}
	wg.Wait()
	return out, errors.Join(errs...)
}

func TestMapParsesInOrder(t *testing.T) {
	got, err := Map([]string{"3", "1", "4", "1", "5"}, strconv.Atoi)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []int{3, 1, 4, 1, 5} {
		if got[i] != want {
			t.Fatalf("got %v", got)
		}
	}
	if _, err := Map([]string{"7", "x"}, strconv.Atoi); err == nil {
		t.Fatal("want an error for x")
	}
}
