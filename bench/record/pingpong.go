// Benchmark for the Gordian recorder: unbuffered ping-pong between two
// goroutines. One op = one send plus its receive (2 channel operations,
// 2 records). Prints "pingpong ops=N ns/op=X records/op=2".
package main

import (
	"flag"
	"fmt"
	"syscall"
	"time"
)

func main() {
	n := flag.Int("n", 1000000, "round trips")
	flag.Parse()
	ping, pong := make(chan int), make(chan int)
	go func() {
		for v := range ping {
			pong <- v
		}
		close(pong)
	}()
	start, cstart := time.Now(), cpuNow()
	for i := 0; i < *n; i++ {
		ping <- i
		<-pong
	}
	el, cpu := time.Since(start), cpuNow()-cstart
	close(ping)
	// Wait for the echo goroutine to see the close: otherwise its last
	// receive races with the process's exit, and a replay of the recorded
	// schedule (bench/run-replay-bench) may end before it.
	<-pong
	// One op = one message (send + its receive): 2n messages.
	fmt.Printf("pingpong ops=%d ns/op=%.1f cpu/op=%.1f records/op=2\n", 2**n, float64(el.Nanoseconds())/float64(2**n), float64(cpu)/float64(2**n))
}

// cpuNow is the process's user+system CPU time in ns.
func cpuNow() int64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Utime.Nano() + ru.Stime.Nano()
}
