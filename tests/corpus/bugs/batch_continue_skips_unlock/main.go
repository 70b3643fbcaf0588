// A metrics flusher goroutine walks a batch of samples and takes the stats
// lock for each one. For a sample without a name it skips ahead with
// `continue`, jumping over the Unlock; the next iteration's Lock then blocks
// on the lock the goroutine already holds. main waits 100 ms for the flush,
// reports a timeout and returns.
//
// Expected: double-lock, occurred, at the Lock in the loop (the second
// acquisition is the same line as the first). The nameless sample is the second
// of three, so the flusher locks again right after skipping it.
package main

import (
	"fmt"
	"sync"
	"time"
)

type Sample struct {
	Name  string
	Value float64
}

type Stats struct {
	mu   sync.Mutex
	sums map[string]float64
}

func (s *Stats) flush(batch []Sample, done chan<- struct{}) {
	for _, smp := range batch {
		s.mu.Lock() // want: double-lock occurred
		if smp.Name == "" {
			continue
		}
		s.sums[smp.Name] += smp.Value
		s.mu.Unlock()
	}
	close(done)
}

func main() {
	s := &Stats{sums: map[string]float64{}}
	batch := []Sample{{"latency", 12.5}, {"", 1}, {"latency", 7.5}}
	done := make(chan struct{})
	go s.flush(batch, done)
	select {
	case <-done:
		fmt.Println("flushed")
	case <-time.After(100 * time.Millisecond):
		fmt.Println("flush timed out")
	}
}
