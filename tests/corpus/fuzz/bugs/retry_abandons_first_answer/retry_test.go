// A client asks a backend and retries when no answer has come within
// 100 ms, up to three attempts, then takes whichever answer comes. The
// attempts answer on one channel with room for one answer, so that an
// answer nobody takes never blocks its attempt, the author thought; but
// after two timeouts three attempts answer, one answer is taken, one waits
// in the buffer, and the third attempt blocks on its send forever
// (goroutine leak).
//
// Why 20 plain runs do not show it and `gordian test` does not predict it:
// the backend answers at once, so the first select always finds the answer
// before its timer and no retry is ever started. The retries are on the
// timer's branch, which the recorded run never took; the trace holds one
// attempt whose send has room in the buffer, so no reordering of it leaves
// a goroutine blocked. Forcing one select to its timer is not enough
// either: the next select takes the first answer from the buffer and the
// second attempt's answer fits. What finds it: a preference for the timer
// case (the select strategy): every execution of the select waits for its
// timer, both retries start, and the third answer has no room.
package retry_abandons_first_answer

import (
	"testing"
	"time"
)

func ask(answers chan<- int, attempt int) {
	answers <- attempt // want: goroutine-leak occurred chan-send
}

func TestRetryUntilAnswered(t *testing.T) {
	answers := make(chan int, 1) // room for a late answer
	go ask(answers, 1)
	answer := -1
	for attempt := 1; answer < 0; {
		select {
		case answer = <-answers:
		case <-time.After(100 * time.Millisecond):
			if attempt == 3 {
				answer = <-answers // the last chance: wait as long as it takes
				break
			}
			attempt++
			go ask(answers, attempt)
		}
	}
	if answer < 1 || answer > 3 {
		t.Fatalf("answer %d", answer)
	}
}
