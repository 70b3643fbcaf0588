// Expected: prints "sum <N*(N-1)/2>" and "chosen 150", exits 0.
// N goroutines (flag -n, default 20000) each send their index on one
// buffered channel; main receives them all: N GoSpawn, N ChanSend, N
// ChanRecv, every goroutine its own chunk. Then a reflect.Select over 300
// user channels of which only channel 150 is ready: the Select records its
// first 167 cases (one chunk holds a Select and its cases), val 150.
// With GORDIAN_TRACE_MAX_MB=1 the trace is cut (kFileTruncated) but the
// program still prints the same and exits 0.
package main

import (
	"flag"
	"fmt"
	"reflect"
)

func main() {
	n := flag.Int("n", 20000, "goroutines")
	flag.Parse()
	ch := make(chan int, 64)
	for i := 0; i < *n; i++ {
		go func() { ch <- i }()
	}
	sum := 0
	for i := 0; i < *n; i++ {
		sum += <-ch
	}
	fmt.Println("sum", sum)

	cases := make([]reflect.SelectCase, 300)
	for i := range cases {
		c := make(chan int, 1)
		if i == 150 {
			c <- 1
		}
		cases[i] = reflect.SelectCase{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(c)}
	}
	chosen, _, _ := reflect.Select(cases)
	fmt.Println("chosen", chosen)
}
