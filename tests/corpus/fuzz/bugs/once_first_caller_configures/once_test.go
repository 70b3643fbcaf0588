// A shared client is made lazily, by whichever caller comes first
// (sync.Once), with that caller's settings. The worker needs a buffered
// result channel and asks for one; the status page, 50 ms later, asks for
// the default, unbuffered. When the status page comes first, the worker's
// result has no reader and its send blocks forever: a goroutine leak.
//
// Why one run does not show it and `gordian test` does not predict it: the
// worker always calls Do first, so the channel is always buffered and the
// send always completes; which caller ran the Once's function decides the
// capacity, and no detector reorders Once.Do calls. What finds it: the two
// Do calls in the other order (the pair-flip strategy), which no
// alternative partner, select case or lock order can give.
package once_first_caller_configures

import (
	"sync"
	"testing"
	"time"
)

type client struct{ results chan int }

func TestOnceFirstCallerConfigures(t *testing.T) {
	var once sync.Once
	var shared *client
	get := func(buffered bool) *client {
		once.Do(func() {
			if buffered {
				shared = &client{results: make(chan int, 1)}
			} else {
				shared = &client{results: make(chan int)}
			}
		})
		return shared
	}
	got := make(chan struct{})
	go func() { // the worker
		c := get(true)
		got <- struct{}{}
		c.results <- 1 // want: goroutine-leak occurred chan-send
	}()
	go func() { // the status page
		time.Sleep(50 * time.Millisecond)
		get(false)
		got <- struct{}{}
	}()
	<-got
	<-got
}
