// Merging two streams with a select loop that switches a channel off
// (sets it to nil) once it is closed; a nil channel's case is never chosen,
// so the loop neither spins on a closed channel nor blocks on a nil one for
// ever: it ends when both inputs are nil. Producers close their channels.
// Expected: no findings.
package merge

import (
	"testing"
)

func emit(vals ...int) <-chan int {
	ch := make(chan int)
	go func() {
		defer close(ch)
		for _, v := range vals {
			ch <- v
		}
	}()
	return ch
}

func Drain(a, b <-chan int) []int {
	var out []int
	for a != nil || b != nil {
		select {
		case v, ok := <-a:
			if !ok {
				a = nil
				continue
			}
			out = append(out, v)
		case v, ok := <-b:
			if !ok {
				b = nil
				continue
			}
			out = append(out, v)
		}
	}
	return out
}

func TestDrain(t *testing.T) {
	got := Drain(emit(1, 3, 5), emit(2, 4))
	sum := 0
	for _, v := range got {
		sum += v
	}
	if len(got) != 5 || sum != 15 {
		t.Fatalf("got %v", got)
	}
}
