// A hit counter: two crawler goroutines count pages under one mutex, a few
// thousand Lock/Unlock pairs that nothing else is done under, and a summary
// goroutine reports on a buffered channel that main closes once the
// crawlers are done. Nothing orders the summary's send before that close:
// main never receives from the channel, it only closes it.
//
// Expected: send-on-closed, predicted (and confirmed by replay) at the
// summary's send. In a plain run the summary sends long before the crawlers
// finish their 6,000 critical sections, so the panic does not occur.
//
// Why it is in the corpus: the mutex has 12,000 operations and no detector
// asks about them, so gordian analyses the trace without storing their
// clocks (docs/analysis-needs.md, "Clocks on demand"); confirming the
// prediction needs every clock of the bug's past, so the analysis builds the
// engine again with all of them before the replay.
package main

import (
	"fmt"
	"sync"
)

type Counter struct {
	mu   sync.Mutex
	hits map[string]int
}

func (c *Counter) Hit(page string) {
	c.mu.Lock()
	c.hits[page]++
	c.mu.Unlock()
}

func crawl(c *Counter, site string, pages int, wg *sync.WaitGroup) {
	defer wg.Done()
	for i := 0; i < pages; i++ {
		c.Hit(fmt.Sprintf("%s/page%d", site, i%50))
	}
}

func main() {
	c := &Counter{hits: map[string]int{}}
	summary := make(chan string, 1)
	go func() {
		summary <- "crawl started" // want: send-on-closed predicted
	}()
	var wg sync.WaitGroup
	wg.Add(2)
	go crawl(c, "a.example", 3000, &wg)
	go crawl(c, "b.example", 3000, &wg)
	wg.Wait()
	close(summary)
	c.mu.Lock()
	fmt.Println("pages:", len(c.hits))
	c.mu.Unlock()
}
