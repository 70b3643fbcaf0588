// Benchmark for the Gordian recorder: 4 producers send on their own
// unbuffered channels; one consumer selects over the 4. One op = one value
// (a send and a 4-case select: 1 + 5 records). Prints "fanin ops=N ns/op=X".
package main

import (
	"flag"
	"fmt"
	"syscall"
	"time"
)

func main() {
	n := flag.Int("n", 400000, "values in total")
	flag.Parse()
	const producers = 4
	var chs [producers]chan int
	for i := range chs {
		chs[i] = make(chan int)
		go func(c chan int) {
			for j := 0; j < *n/producers; j++ {
				c <- j
			}
		}(chs[i])
	}
	start, cstart := time.Now(), cpuNow()
	total := (*n / producers) * producers
	for got := 0; got < total; got++ {
		select {
		case <-chs[0]:
		case <-chs[1]:
		case <-chs[2]:
		case <-chs[3]:
		}
	}
	el, cpu := time.Since(start), cpuNow()-cstart
	fmt.Printf("fanin ops=%d ns/op=%.1f cpu/op=%.1f records/op=6\n", total, float64(el.Nanoseconds())/float64(total), float64(cpu)/float64(total))
}

// cpuNow is the process's user+system CPU time in ns.
func cpuNow() int64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Utime.Nano() + ru.Stime.Nano()
}
