// A test starts an echo server goroutine that serves requests until its
// stop channel is closed, and registers close(stop) with t.Cleanup, the
// usual way a Go test tears down what it started. When the test function
// returns, the server is still waiting in its select; the cleanup then
// closes stop and the server returns.
//
// Correct: nothing leaks. The server waits on a channel that the test's
// own cleanup closes. Gordian must not call it blocked forever at the
// test's end: the end of a test is after its cleanups have run.
package cleanup

import "testing"

type echo struct {
	reqs chan string
	resp chan string
	stop chan struct{}
	done chan struct{}
}

func startEcho(t *testing.T) *echo {
	e := &echo{
		reqs: make(chan string),
		resp: make(chan string),
		stop: make(chan struct{}),
		done: make(chan struct{}),
	}
	go func() {
		defer close(e.done)
		for {
			select { // nowant: goroutine-leak
			case r := <-e.reqs:
				e.resp <- "echo " + r
			case <-e.stop:
				return
			}
		}
	}()
	t.Cleanup(func() {
		close(e.stop)
		<-e.done
	})
	return e
}

func TestEcho(t *testing.T) {
	e := startEcho(t)
	for _, m := range []string{"a", "b", "c"} {
		e.reqs <- m
		if got := <-e.resp; got != "echo "+m {
			t.Fatalf("got %q", got)
		}
	}
}
