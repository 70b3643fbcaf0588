// The twin of bugs/poll_reads_last_on_timeout: the timeout branch returns
// the last value the caller itself took from an answer, never one the
// goroutine is still writing, so every access of p.last is the caller's.
// `gordian fuzz -race` takes both branches and finds no race.
package poll_returns_answer_only

import (
	"testing"
	"time"
)

type Poller struct {
	last   int
	misses int
}

func (p *Poller) Poll(source func() int) int {
	answer := make(chan int, 1)
	go func() { answer <- source() }()
	select {
	case v := <-answer:
		p.last = v
		return v
	case <-time.After(time.Second):
		p.misses++
		return p.last
	}
}

func TestPollGetsTheAnswer(t *testing.T) {
	p := &Poller{}
	if v := p.Poll(func() int { return 42 }); v != 42 && v != 0 {
		t.Fatalf("got %d", v)
	}
}
