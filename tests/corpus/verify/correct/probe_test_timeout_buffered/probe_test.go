package probe

import (
	"testing"
	"time"
)

func TestProbe(t *testing.T) {
	ch := make(chan int, 1)
	go func() {
		ch <- Compute()
	}()
	select {
	case v := <-ch:
		t.Log(v)
	case <-time.After(time.Second):
		t.Log("timeout")
	}
}
