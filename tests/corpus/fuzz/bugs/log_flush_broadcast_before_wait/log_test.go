// A log writer has a flusher goroutine that takes flush requests on a
// channel, writes the buffer out, counts the flush under the lock and
// broadcasts on a Cond. Sync hands a request to the flusher, then takes
// the lock and waits for the broadcast without checking whether the flush
// it asked for is already done. The hand-off looks like an order, but it
// only says that the flusher has the request: when the flusher writes and
// broadcasts before Sync has taken the lock (Sync is slow between its send
// and its Lock), the Broadcast finds no waiter and is lost. Sync waits
// forever, and the flusher waits forever for the next request (deadlock).
//
// Why 20 plain runs do not show it and `gordian test` does not predict it:
// the flusher spends 5 ms writing, by which time Sync waits; in the trace
// Sync's Wait released the lock before the flusher took it, and a
// Broadcast that wakes its waiter leaves no lost wakeup to predict. What
// finds it: the lock strategy (the flusher's Lock before Sync's), or a
// delay point at Sync's Lock.
package log_flush_broadcast_before_wait

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
	for range l.reqs { // want: global-deadlock occurred
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
	l.reqs <- struct{}{}
	l.mu.Lock()
	l.flushed.Wait() // want: global-deadlock occurred
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
