// A generic streaming helper: Stream[T] starts a goroutine that sends every
// item on an unbuffered channel and closes it at the end; First[T] returns the
// first item that matches. After First returns, the producer blocks on its
// next send forever and outlives the test.
//
// Expected: goroutine-leak, occurred, chan-send, at the send in Stream. The
// match is the second of four items, so the producer always has more to send.
package stream

import "testing"

func Stream[T any](items []T) <-chan T {
	ch := make(chan T)
	go func() {
		for _, it := range items {
			ch <- it // want: goroutine-leak occurred chan-send
		}
		close(ch)
	}()
	return ch
}

func First[T any](ch <-chan T, match func(T) bool) (T, bool) {
	for v := range ch {
		if match(v) {
			return v, true
		}
	}
	var zero T
	return zero, false
}

type Order struct {
	ID    int
	Total float64
}

func TestFirstLargeOrder(t *testing.T) {
	orders := []Order{{1, 9.5}, {2, 120}, {3, 14}, {4, 300}}
	o, ok := First(Stream(orders), func(o Order) bool { return o.Total > 100 })
	if !ok || o.ID != 2 {
		t.Fatalf("got %+v %v", o, ok)
	}
}
