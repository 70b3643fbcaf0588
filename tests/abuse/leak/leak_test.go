// The trace that scripts/abuse records once and crafts its hostile inputs
// from: TestLeak leaks a goroutine blocked on a receive, so `gordian
// analyze` reports a finding and prints the source line of the receive
// (the line the crafted sites.txt points elsewhere).
package leak

import "testing"

func TestLeak(t *testing.T) {
	ch := make(chan int)
	go func() {
		<-ch // ABUSE-LEAK-LINE
	}()
}
