// A scheduler that prefers urgent jobs: a nested select first tries the urgent
// channel without blocking (default), and only then waits on both channels.
// Producers close their channels when done; a closed channel is switched off
// by setting it to nil, and the loop ends when both are nil. Expected: no
// findings.
package main

import "fmt"

func produce(prefix string, n int) <-chan string {
	ch := make(chan string)
	go func() {
		defer close(ch)
		for i := 1; i <= n; i++ {
			ch <- fmt.Sprintf("%s-%d", prefix, i)
		}
	}()
	return ch
}

func main() {
	urgent, normal := produce("urgent", 3), produce("normal", 4)
	handled := 0
	for urgent != nil || normal != nil {
		select {
		case j, ok := <-urgent:
			if !ok {
				urgent = nil
				continue
			}
			fmt.Println("run", j)
			handled++
			continue
		default:
		}
		select {
		case j, ok := <-urgent:
			if !ok {
				urgent = nil
				continue
			}
			fmt.Println("run", j)
		case j, ok := <-normal:
			if !ok {
				normal = nil
				continue
			}
			fmt.Println("run", j)
		}
		handled++
	}
	fmt.Println("handled", handled, "jobs")
}
