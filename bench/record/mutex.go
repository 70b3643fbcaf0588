// Benchmark for the Gordian recorder: 4 goroutines contend for one mutex.
// One op = Lock + Unlock. Prints "mutex ops=N ns/op=X records/op=2".
package main

import (
	"flag"
	"fmt"
	"sync"
	"time"
)

func main() {
	n := flag.Int("n", 1000000, "lock/unlock pairs in total")
	flag.Parse()
	const workers = 4
	var mu sync.Mutex
	var wg sync.WaitGroup
	counter := 0
	start := time.Now()
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < *n/workers; i++ {
				mu.Lock()
				counter++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	el := time.Since(start)
	fmt.Printf("mutex ops=%d ns/op=%.1f records/op=2 (counter %d)\n", counter, float64(el.Nanoseconds())/float64(counter), counter)
}
