// Parallel word count. One goroutine per file counts its words and sends the
// count on a buffered channel; main waits for all of them, closes the channel
// and adds up the counts. It prints the right total in a normal run.
//
// Bug: each goroutine calls wg.Add(1) itself (inside count), instead of main
// calling it before the go statement. Only the 50 ms sleep makes the Adds
// come before main's wg.Wait. In the schedule where Wait runs first, it
// returns at once, main closes the channel, and a late goroutine sends on the
// closed channel.
//
// gordian reports: send-on-closed, predicted, at the send in count (the Add
// racing with Wait is the cause).
package main

import (
	"fmt"
	"strings"
	"sync"
	"time"
)

type Counter struct {
	wg     sync.WaitGroup
	counts chan int
}

func (c *Counter) count(text string) {
	c.wg.Add(1)
	defer c.wg.Done()
	c.counts <- len(strings.Fields(text)) // want: send-on-closed predicted
}

func main() {
	files := map[string]string{
		"a.txt": "the quick brown fox",
		"b.txt": "jumps over",
		"c.txt": "the lazy dog",
	}
	c := &Counter{counts: make(chan int, len(files))}
	for _, text := range files {
		go c.count(text)
	}
	time.Sleep(50 * time.Millisecond)
	c.wg.Wait()
	close(c.counts)
	total := 0
	for n := range c.counts {
		total += n
	}
	fmt.Println("total words:", total)
}
