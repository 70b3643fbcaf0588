// The shape of fuzz/bugs/completion_notice_skipped done right: the notice
// channel has room for the notice, and the completer always sends it, so
// a job that starts waiting late finds the notice there, whichever order
// the two run in.
package completion_notice_buffered

import (
	"sync"
	"testing"
	"time"
)

type job struct {
	notice chan string
}

func (j *job) Await(log chan<- string) string {
	log <- "waiting for the notice"
	return <-j.notice
}

// Complete leaves the notice in the buffer: it never blocks.
func (j *job) Complete() {
	j.notice <- "done"
}

func TestJobGetsItsNotice(t *testing.T) {
	j := &job{notice: make(chan string, 1)}
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
	wg.Wait()
}
