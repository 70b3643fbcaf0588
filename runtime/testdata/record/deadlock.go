// Expected with recording: after about GORDIAN_DEADLOCK_MS, stderr says
// "gordian: global deadlock: all 2 goroutines are blocked", exit status 3.
// main blocks in mu.Lock (MutexLock never completes), the worker holds mu and
// blocks sending on ch (ChanSend never completes); GlobalDeadlock obj 2 and
// ProgramExit 3 (aux 4) are in the recorder's pseudo-goroutine. A ticker is
// pending, so Go's own detector would never fire: without recording the
// program hangs forever.
package main

import (
	"sync"
	"time"
)

func main() {
	var mu sync.Mutex
	ch := make(chan int)
	_ = time.NewTicker(time.Hour)
	go func() {
		mu.Lock()
		ch <- 1
	}()
	time.Sleep(20 * time.Millisecond)
	mu.Lock()
	<-ch
}
