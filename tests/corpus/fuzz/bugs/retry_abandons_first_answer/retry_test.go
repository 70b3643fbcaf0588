// A client asks a backend and retries when no answer has come within
// 100 ms, up to three attempts, then takes whichever answer comes. Every
// attempt answers on the same unbuffered channel, and only one answer is
// ever received: the attempts whose answers were not taken block on their
// send forever (goroutine leak).
//
// Why 20 plain runs do not show it and `gordian test` does not predict it:
// the backend answers at once, so the first select always finds the answer
// before its timer and no retry is ever started. The retries are on the
// timer's branch, which the recorded run never took, so the trace holds one
// attempt, one send and its receive: nothing is left blocked in any
// reordering of it. What finds it: a preference for the timer case (the
// select strategy): the select waits for its timer although the answer is
// ready, the retries start, and their answers have no receiver.
package retry_abandons_first_answer

import (
	"testing"
	"time"
)

func ask(answers chan<- int, attempt int) {
	answers <- attempt // want: goroutine-leak occurred chan-send
}

func TestRetryUntilAnswered(t *testing.T) {
	answers := make(chan int)
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
