// Tests, one of which leaks a goroutine blocked on a receive.
//
// The trace must contain: TestStart records for TestLeaks and TestFine
// (strings "TestLeaks", "TestFine"); in TestLeaks' goroutine, a GoSpawn at
// @leakgo and, after its TestEnd, a BlockedAtTestEnd naming the leaked
// goroutine (a child of the test goroutine) with val = TestLeaks' index;
// the leaked goroutine's ChanRecv at @leakrecv never completes. TestFine
// leaks nothing: no BlockedAtTestEnd carries its index. go test passes.
package leaktest

import "testing"

func TestLeaks(t *testing.T) {
	ch := make(chan int)
	go func() { //@leakgo
		<-ch //@leakrecv
	}()
}

func TestFine(t *testing.T) {
	ch := make(chan int, 1)
	ch <- 1 //@finesend
	if <-ch != 1 {
		t.Fatal("bad value")
	}
}
