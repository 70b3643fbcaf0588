// A lease holds a mutex for a limited time: Acquire starts an expiry goroutine
// that unlocks the mutex after the TTL, and then takes the lock. The expiry
// goroutine is started before the lock is taken. main acquires a 200 ms lease
// and then waits for it to expire by locking again.
//
// Expected: unlock-of-unlocked, predicted, at the Unlock in expire. In the
// normal run the expiry goroutine sleeps 200 ms, so main's Lock comes first and
// its second Lock waits for the expiry. The sleep orders nothing: if the expiry
// goroutine unlocks before Acquire's Lock, it unlocks an unlocked mutex.
// (The lease was 50 ms: on a loaded CI machine main was once descheduled for
// longer than that after the go statement, and the bug occurred instead.)
package main

import (
	"fmt"
	"sync"
	"time"
)

type Lease struct {
	mu     sync.Mutex
	holder string
}

func (l *Lease) expire(ttl time.Duration) {
	time.Sleep(ttl)
	l.mu.Unlock() // want: unlock-of-unlocked predicted
}

func (l *Lease) Acquire(holder string, ttl time.Duration) {
	go l.expire(ttl)
	l.mu.Lock()
	l.holder = holder
}

func main() {
	var l Lease
	l.Acquire("node-a", 200*time.Millisecond)
	fmt.Println("lease held by", l.holder)

	l.mu.Lock() // blocks until the lease expires
	fmt.Println("lease expired; previous holder", l.holder)
	l.mu.Unlock()
}
