// Benchmark for the Gordian recorder: WaitGroup fan-out. Each round spawns
// 8 goroutines that each call Done; the spawner Adds and Waits. One op = one
// goroutine (spawn, start, Done, end, plus the round's Add and Wait).
// Prints "wgfanout ops=N ns/op=X".
package main

import (
	"flag"
	"fmt"
	"sync"
	"syscall"
	"time"
)

func main() {
	n := flag.Int("n", 200000, "goroutines in total")
	flag.Parse()
	const fan = 8
	var wg sync.WaitGroup
	start, cstart := time.Now(), cpuNow()
	for r := 0; r < *n/fan; r++ {
		wg.Add(fan)
		for i := 0; i < fan; i++ {
			go func() {
				wg.Done()
			}()
		}
		wg.Wait()
	}
	el, cpu := time.Since(start), cpuNow()-cstart
	ops := (*n / fan) * fan
	fmt.Printf("wgfanout ops=%d ns/op=%.1f cpu/op=%.1f\n", ops, float64(el.Nanoseconds())/float64(ops), float64(cpu)/float64(ops))
}

// cpuNow is the process's user+system CPU time in ns.
func cpuNow() int64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Utime.Nano() + ru.Stime.Nano()
}
