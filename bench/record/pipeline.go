// Benchmark for the Gordian recorder: a 3-stage pipeline over buffered
// channels (capacity 64). One op = one value moving one stage (a send and a
// receive). Prints "pipeline ops=N ns/op=X records/op=2".
package main

import (
	"flag"
	"fmt"
	"syscall"
	"time"
)

func main() {
	n := flag.Int("n", 1000000, "values")
	flag.Parse()
	a, b, c := make(chan int, 64), make(chan int, 64), make(chan int, 64)
	go func() {
		for v := range a {
			b <- v + 1
		}
		close(b)
	}()
	go func() {
		for v := range b {
			c <- v * 2
		}
		close(c)
	}()
	start, cstart := time.Now(), cpuNow()
	go func() {
		for i := 0; i < *n; i++ {
			a <- i
		}
		close(a)
	}()
	sum := 0
	for v := range c {
		sum += v
	}
	el, cpu := time.Since(start), cpuNow()-cstart
	ops := 3 * *n
	fmt.Printf("pipeline ops=%d ns/op=%.1f cpu/op=%.1f records/op=2 (sum %d)\n", ops, float64(el.Nanoseconds())/float64(ops), float64(cpu)/float64(ops), sum)
}

// cpuNow is the process's user+system CPU time in ns.
func cpuNow() int64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Utime.Nano() + ru.Stime.Nano()
}
