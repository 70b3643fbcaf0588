// A mutex handed between goroutines on purpose: the coordinator locks the
// journal, hands the "lock token" to a writer goroutine over a channel, and the
// writer unlocks it when its write is done. The coordinator's next Lock waits
// for that Unlock. The Unlock is ordered after the Lock by the channel (Lock,
// send, receive, Unlock), so it can never unlock an unlocked mutex, and each
// Lock is released exactly once. Expected: no findings.
package handoff

import (
	"sync"
	"testing"
)

type Journal struct {
	mu      sync.Mutex
	entries []string
}

func TestHandOff(t *testing.T) {
	j := &Journal{}
	tokens := make(chan string)
	done := make(chan struct{})
	go func() { // writer: owns the lock between receive and Unlock
		defer close(done)
		for entry := range tokens {
			j.entries = append(j.entries, entry)
			j.mu.Unlock()
		}
	}()
	for _, e := range []string{"begin", "update x=1", "commit"} {
		j.mu.Lock()
		tokens <- e
	}
	close(tokens)
	<-done
	j.mu.Lock()
	n := len(j.entries)
	j.mu.Unlock()
	if n != 3 {
		t.Fatalf("journal has %d entries", n)
	}
}
