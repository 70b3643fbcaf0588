package probe

import (
	"testing"
	"time"
)

// When the timer fires first, the sender is left blocked for ever.
func TestProbe(t *testing.T) {
	ch := make(chan int)
	go func() {
		ch <- Compute() // want: goroutine-leak predicted chan-send
	}()
	select {
	case v := <-ch:
		t.Log(v)
	case <-time.After(time.Second):
		t.Log("timeout")
	}
}
