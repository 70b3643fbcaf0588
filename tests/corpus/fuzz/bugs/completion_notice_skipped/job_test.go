// A job logs that it is waiting, marks itself waiting (an atomic flag) and
// waits for its completion notice on an unbuffered channel. The completer
// sends the notice only to a job that is waiting, so that it never blocks
// on a job that is gone. The flag is set after the log line: when the
// completer looks between the two, it finds no waiting job and skips the
// notice, and the job then waits forever; so does the test, which waits
// for the job: a global deadlock.
//
// Why 20 plain runs do not show it and `gordian test` does not predict it:
// the completer comes 20 ms after the job, which has long been waiting,
// so it always finds the flag set and sends. The flag is an atomic the
// recorder does not see: the trace holds the notice's send and its
// receive, and no reordering of recorded operations leaves the receive
// without its send. What finds it: a delay point (the delay strategy) that
// holds the job at its log line until the completer has looked.
package completion_notice_skipped

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

type job struct {
	waiting atomic.Bool
	notice  chan string
}

func (j *job) Await(log chan<- string) string {
	log <- "waiting for the notice"
	j.waiting.Store(true)
	return <-j.notice // want: global-deadlock occurred
}

// Complete sends the notice to a waiting job; nobody waits for it otherwise.
func (j *job) Complete() {
	if j.waiting.Load() {
		j.notice <- "done"
	}
}

func TestJobGetsItsNotice(t *testing.T) {
	j := &job{notice: make(chan string)}
	log := make(chan string, 8)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		if n := j.Await(log); n != "done" {
			t.Errorf("notice %q", n)
		}
	}()
	time.Sleep(20 * time.Millisecond)
	j.Complete()
	wg.Wait() // want: global-deadlock occurred
}
