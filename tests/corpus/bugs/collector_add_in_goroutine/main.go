// A size collector starts one worker per directory. Each worker registers
// itself with the WaitGroup (Add inside the new goroutine, hidden in a method),
// computes a size and sends it on the buffered results channel. main gives the
// workers 50 ms to register, then waits and closes results.
//
// Expected: send-on-closed, predicted, at the worker's send. In the normal run
// every worker registers long before wg.Wait, so Wait waits for all sends and
// the close comes last. Nothing orders a worker's Add before main's Wait (the
// sleep is no synchronisation): in the schedule where Wait runs before some
// worker's Add, Wait returns at once, main closes results, and that worker then
// sends on a closed channel.
package main

import (
	"fmt"
	"sync"
	"time"
)

type Collector struct {
	wg      sync.WaitGroup
	results chan int
}

func (c *Collector) register() { c.wg.Add(1) }

func (c *Collector) measure(dir string) {
	c.register()
	size := len(dir) * 512
	c.results <- size // want: send-on-closed predicted
	c.wg.Done()
}

func main() {
	dirs := []string{"/var/log", "/etc", "/home/alice", "/srv/data"}
	c := &Collector{results: make(chan int, len(dirs))}
	for _, d := range dirs {
		go c.measure(d)
	}

	time.Sleep(50 * time.Millisecond) // "give the workers time to start"
	c.wg.Wait()
	close(c.results)

	total := 0
	for s := range c.results {
		total += s
	}
	fmt.Println("total bytes:", total)
}
