// A background flusher writes buffered lines on every tick of a time.Ticker
// and on shutdown. Stop closes the quit channel and waits for the flusher's
// exited channel; the flusher stops its ticker (defer) and does a final flush
// before it exits. Add and the flusher share the buffer under a mutex. No
// goroutine or ticker is left behind. Expected: no findings.
package flusher

import (
	"strings"
	"sync"
	"testing"
	"time"
)

type Flusher struct {
	mu     sync.Mutex
	buf    []string
	out    []string
	quit   chan struct{}
	exited chan struct{}
}

func Start(every time.Duration) *Flusher {
	f := &Flusher{quit: make(chan struct{}), exited: make(chan struct{})}
	go f.loop(every)
	return f
}

func (f *Flusher) Add(line string) {
	f.mu.Lock()
	f.buf = append(f.buf, line)
	f.mu.Unlock()
}

func (f *Flusher) flush() {
	f.mu.Lock()
	if len(f.buf) > 0 {
		f.out = append(f.out, strings.Join(f.buf, ","))
		f.buf = nil
	}
	f.mu.Unlock()
}

func (f *Flusher) loop(every time.Duration) {
	defer close(f.exited)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			f.flush()
		case <-f.quit:
			f.flush()
			return
		}
	}
}

func (f *Flusher) Stop() {
	close(f.quit)
	<-f.exited
}

func TestFlushOnStop(t *testing.T) {
	f := Start(5 * time.Millisecond)
	f.Add("a")
	time.Sleep(20 * time.Millisecond)
	f.Add("b")
	f.Add("c")
	f.Stop()
	if got := strings.Join(f.out, ","); got != "a,b,c" {
		t.Fatalf("flushed %q", got)
	}
}
