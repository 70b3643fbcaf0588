// The twin of fuzz/bugs/log_flush_broadcast_before_wait: Sync reads the
// flush count before it hands its request over and waits while the count
// has not moved, so a Broadcast that comes before its Wait is not lost (the
// count already moved and Sync does not wait). Expected: no findings.
package log_flush_waits_for_generation

import (
	"sync"
	"testing"
	"time"
)

type Log struct {
	mu      sync.Mutex
	flushed *sync.Cond
	flushes int
	buf     []string
	out     []string
	reqs    chan struct{}
}

func NewLog() *Log {
	l := &Log{reqs: make(chan struct{})}
	l.flushed = sync.NewCond(&l.mu)
	go l.flusher()
	return l
}

func (l *Log) flusher() {
	for range l.reqs {
		time.Sleep(5 * time.Millisecond) // write to disk
		l.mu.Lock()
		l.out = append(l.out, l.buf...)
		l.buf = nil
		l.flushes++
		l.flushed.Broadcast()
		l.mu.Unlock()
	}
}

func (l *Log) Write(line string) {
	l.mu.Lock()
	l.buf = append(l.buf, line)
	l.mu.Unlock()
}

// Sync returns when everything written so far is out.
func (l *Log) Sync() {
	l.mu.Lock()
	seen := l.flushes
	l.mu.Unlock()
	l.reqs <- struct{}{}
	l.mu.Lock()
	for l.flushes == seen {
		l.flushed.Wait()
	}
	l.mu.Unlock()
}

func TestSyncWritesOut(t *testing.T) {
	l := NewLog()
	l.Write("started")
	l.Write("ready")
	l.Sync()
	close(l.reqs)
	if len(l.out) != 2 {
		t.Fatalf("out = %v", l.out)
	}
}
