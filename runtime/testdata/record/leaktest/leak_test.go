// Expected with `go test`: PASS. Recorded: TestStart for "TestLeak",
// "TestLeak/sub" and "TestOK" (the root runner is not a test); TestEnd for
// each; BlockedAtTestEnd in TestLeak's goroutine naming its sender goroutine
// (aux = ChanSend), and in TestLeak/sub's goroutine naming its receiver
// (aux = ChanRecv): leaks are attributed to the innermost test. TestOK has
// no BlockedAtTestEnd.
package leaktest

import "testing"

func TestLeak(t *testing.T) {
	ch := make(chan int)
	go func() { ch <- 1 }() // leaks: nobody receives
	t.Run("sub", func(t *testing.T) {
		c2 := make(chan int)
		go func() { <-c2 }() // leaks in the subtest
	})
}

func TestOK(t *testing.T) {
	ch := make(chan int, 1)
	ch <- 1
	<-ch
	done := make(chan bool)
	go func() { done <- true }()
	<-done
}
