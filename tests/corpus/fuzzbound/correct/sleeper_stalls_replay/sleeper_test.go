// A goroutine sleeps 300 ms before it sends its result: a replay waiting
// for that send sees a sleeping goroutine, not a stalled one, and a
// schedule that orders other operations first still ends in time.
// Expected: no findings.
package sleeper_stalls_replay

import (
	"testing"
	"time"
)

func TestSlowResult(t *testing.T) {
	slow := make(chan int)
	fast := make(chan int)
	go func() {
		time.Sleep(300 * time.Millisecond)
		slow <- 1
	}()
	go func() { fast <- 2 }()
	if <-fast+<-slow != 3 {
		t.Fatal("wrong sum")
	}
}
