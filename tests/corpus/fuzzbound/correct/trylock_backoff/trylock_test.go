// Two goroutines each need two mutexes and take them in opposite orders,
// but with TryLock: one that cannot get its second lock releases the first
// and tries again after a short pause. They may livelock for a while; they
// never deadlock, and both finish.
// Expected: no findings.
package trylock_backoff

import (
	"sync"
	"testing"
	"time"
)

func both(first, second *sync.Mutex, n *int) {
	for {
		first.Lock()
		if second.TryLock() {
			*n++
			second.Unlock()
			first.Unlock()
			return
		}
		first.Unlock()
		time.Sleep(50 * time.Microsecond)
	}
}

func TestOppositeOrdersWithTryLock(t *testing.T) {
	var a, b sync.Mutex
	var n int
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); both(&a, &b, &n) }()
	go func() { defer wg.Done(); both(&b, &a, &n) }()
	wg.Wait()
	if n != 2 {
		t.Fatalf("n = %d", n)
	}
}
