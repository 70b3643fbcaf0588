// Benchmark for the Gordian recorder: 4 goroutines contend for one mutex.
// One op = Lock + Unlock. Prints "mutex ops=N ns/op=X records/op=2".
package main

import (
	"flag"
	"fmt"
	"sync"
	"syscall"
	"time"
)

func main() {
	n := flag.Int("n", 1000000, "lock/unlock pairs in total")
	flag.Parse()
	const workers = 4
	var mu sync.Mutex
	var wg sync.WaitGroup
	counter := 0
	start, cstart := time.Now(), cpuNow()
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
	el, cpu := time.Since(start), cpuNow()-cstart
	fmt.Printf("mutex ops=%d ns/op=%.1f cpu/op=%.1f records/op=2 (counter %d)\n", counter, float64(el.Nanoseconds())/float64(counter), float64(cpu)/float64(counter), counter)
}

// cpuNow is the process's user+system CPU time in ns.
func cpuNow() int64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Utime.Nano() + ru.Stime.Nano()
}
