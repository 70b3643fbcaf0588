// Benchmark for the Gordian recorder: a wide WaitGroup fan-out. The main
// goroutine Adds 1 and spawns a goroutine, n times, then Waits for all of
// them at once; each goroutine does a little work (sums a small slice into
// its own slot) and calls Done. So up to n goroutines are alive together,
// each recording only GoStart, Done and GoEnd. One op = one goroutine
// (Add, spawn, start, Done, end; plus the one Wait).
// Prints "wgwide ops=N ns/op=X cpu/op=Y".
package main

import (
	"flag"
	"fmt"
	"sync"
	"syscall"
	"time"
)

func main() {
	n := flag.Int("n", 10000, "goroutines")
	flag.Parse()
	var wg sync.WaitGroup
	work := make([]int, 16)
	for i := range work {
		work[i] = i
	}
	sums := make([]int, *n)
	start, cstart := time.Now(), cpuNow()
	for i := 0; i < *n; i++ {
		wg.Add(1)
		go func(i int) {
			s := 0
			for _, v := range work {
				s += v * i
			}
			sums[i] = s
			wg.Done()
		}(i)
	}
	wg.Wait()
	el, cpu := time.Since(start), cpuNow()-cstart
	total := 0
	for _, s := range sums {
		total += s
	}
	fmt.Printf("wgwide ops=%d ns/op=%.1f cpu/op=%.1f records/op=5 (sum %d)\n", *n, float64(el.Nanoseconds())/float64(*n), float64(cpu)/float64(*n), total)
}

// cpuNow is the process's user+system CPU time in ns.
func cpuNow() int64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Utime.Nano() + ru.Stime.Nano()
}
