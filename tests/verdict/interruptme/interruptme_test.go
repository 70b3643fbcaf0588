// A test that runs for a minute while a goroutine waits forever: the
// interrupt test stops gordian test with SIGINT after a few seconds and
// expects "interrupted", exit 2, no finding (the waiting goroutine is no
// leak of a run that did not end by itself) and no process left behind.
package interruptme

import (
	"testing"
	"time"
)

func TestLong(t *testing.T) {
	ch := make(chan int)
	go func() { ch <- 1 }()
	time.Sleep(60 * time.Second)
}
