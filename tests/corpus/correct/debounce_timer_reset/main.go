// A debouncer driven by one goroutine and one time.Timer: every keystroke
// arrives on a channel and resets the timer; when the timer fires, the latest
// text is saved. Closing the input channel makes the goroutine stop the timer,
// save what is pending and exit; main waits for it. The timer's channel is
// only read by the goroutine that owns the timer. Expected: no findings.
package main

import (
	"fmt"
	"time"
)

func debounce(input <-chan string, quiet time.Duration, saved chan<- string) {
	defer close(saved)
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	pending := ""
	for {
		select {
		case text, ok := <-input:
			if !ok {
				timer.Stop()
				if pending != "" {
					saved <- pending
				}
				return
			}
			pending = text
			timer.Reset(quiet)
		case <-timer.C:
			saved <- pending
			pending = ""
		}
	}
}

func main() {
	input := make(chan string)
	saved := make(chan string, 8)
	go debounce(input, 20*time.Millisecond, saved)
	for _, s := range []string{"h", "he", "hel", "hell", "hello"} {
		input <- s
	}
	time.Sleep(50 * time.Millisecond)
	input <- "hello, world"
	close(input)
	for s := range saved {
		fmt.Println("saved:", s)
	}
}
