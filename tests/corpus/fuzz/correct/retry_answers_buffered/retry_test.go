// The shape of fuzz/bugs/retry_abandons_first_answer done right: the
// answer channel has room for every attempt's answer, so an attempt whose
// answer is not taken leaves it in the buffer and ends, whichever case
// each select takes.
package retry_answers_buffered

import (
	"testing"
	"time"
)

const attempts = 3

func ask(answers chan<- int, attempt int) {
	answers <- attempt
}

func TestRetryUntilAnswered(t *testing.T) {
	answers := make(chan int, attempts)
	go ask(answers, 1)
	answer := -1
	for attempt := 1; answer < 0; {
		select {
		case answer = <-answers:
		case <-time.After(100 * time.Millisecond):
			if attempt == attempts {
				answer = <-answers // the last chance: wait as long as it takes
				break
			}
			attempt++
			go ask(answers, attempt)
		}
	}
	if answer < 1 || answer > attempts {
		t.Fatalf("answer %d", answer)
	}
}
