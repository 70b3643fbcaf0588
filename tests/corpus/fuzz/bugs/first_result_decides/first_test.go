// Two lookups answer on one channel; the caller treats the first answer as
// the winner. When the answer of the slow lookup comes first, the caller
// concludes the fast one failed, closes the channel to "stop" it, and the
// fast lookup's send then panics (send on closed channel).
//
// Why one run does not show it and `gordian test` does not predict it: the
// fast lookup answers at once and the slow one after 50 ms, so the first
// receive always gets the fast answer; the close is on a branch that
// depends on that value (first == 2), so the recorded trace holds no close
// at all and no detector can place one. What finds it: the receive's
// alternative partner (the slow lookup's send) as a schedule prefix; the
// branch is then taken and the close happens.
package first_result_decides

import (
	"testing"
	"time"
)

func TestFirstResultDecides(t *testing.T) {
	answers := make(chan int)
	go func() {
		answers <- 1 // want: send-on-closed occurred
	}()
	go func() {
		time.Sleep(50 * time.Millisecond)
		answers <- 2
	}()
	first := <-answers
	if first == 2 {
		close(answers) // the fast lookup is taken for dead
		time.Sleep(100 * time.Millisecond)
		return
	}
	if second := <-answers; second != 2 {
		t.Fatalf("second answer %d", second)
	}
}
