// Exact-partner stress test (docs/trace-format.md, "Exact partners").
//
// Expected: exits 0 and prints one line per receiving goroutine,
// "R <child index> <value> <value> ...", the values it received in order.
//
// main spawns, in this order: S senders (child indexes 0..S-1), then NSEL
// select receivers, then NRANGE range receivers. Sender j sends the values
// j*1000000 + n, n = 0, 1, 2, ..., M-1, in order; value n goes by mode n%5:
//
//	0: u <- v                          unbuffered
//	1: b <- v                          buffered (cap 3)
//	2: select { x <- v; y <- v }       unbuffered x, buffered y (cap 1)
//	3: select { u <- v; b <- v }
//	4: p <- v                          buffered (cap 2), drained by range
//
// Select receivers loop on select { <-u, <-b, <-x, <-y, <-quit }; once quit
// is closed (all senders done) they drain b and y with a select/default.
// Range receivers do `for v := range p`. The checker
// (src/gordian/instrument/partners_gotest.cc) maps every completed receive
// of the trace to the send with the same channel and value sequence number
// and checks that the sender and its send ordinal give exactly the value the
// receiver printed, for every value.
package main

import (
	"flag"
	"fmt"
	"strings"
	"sync"
)

func main() {
	S := flag.Int("s", 4, "senders")
	M := flag.Int("m", 300, "values per sender")
	NSEL := flag.Int("sel", 3, "select receivers")
	NRANGE := flag.Int("range", 2, "range receivers")
	flag.Parse()

	u := make(chan int)
	b := make(chan int, 3)
	x := make(chan int)
	y := make(chan int, 1)
	p := make(chan int, 2)
	quit := make(chan struct{})

	var senders sync.WaitGroup
	for j := 0; j < *S; j++ {
		senders.Add(1)
		go func(j int) {
			defer senders.Done()
			for n := 0; n < *M; n++ {
				v := j*1000000 + n
				switch n % 5 {
				case 0:
					u <- v
				case 1:
					b <- v
				case 2:
					select {
					case x <- v:
					case y <- v:
					}
				case 3:
					select {
					case u <- v:
					case b <- v:
					}
				case 4:
					p <- v
				}
			}
		}(j)
	}

	got := make([][]int, *S+*NSEL+*NRANGE)
	var receivers sync.WaitGroup
	for k := 0; k < *NSEL; k++ {
		idx := *S + k
		receivers.Add(1)
		go func() {
			defer receivers.Done()
			for {
				select {
				case v := <-u:
					got[idx] = append(got[idx], v)
				case v := <-b:
					got[idx] = append(got[idx], v)
				case v := <-x:
					got[idx] = append(got[idx], v)
				case v := <-y:
					got[idx] = append(got[idx], v)
				case <-quit:
					for {
						select {
						case v := <-b:
							got[idx] = append(got[idx], v)
						case v := <-y:
							got[idx] = append(got[idx], v)
						default:
							return
						}
					}
				}
			}
		}()
	}
	for k := 0; k < *NRANGE; k++ {
		idx := *S + *NSEL + k
		receivers.Add(1)
		go func() {
			defer receivers.Done()
			for v := range p {
				got[idx] = append(got[idx], v)
			}
		}()
	}
	senders.Wait()
	close(quit)
	close(p)
	receivers.Wait()
	for idx := *S; idx < len(got); idx++ {
		var sb strings.Builder
		fmt.Fprintf(&sb, "R %d", idx)
		for _, v := range got[idx] {
			fmt.Fprintf(&sb, " %d", v)
		}
		fmt.Println(sb.String())
	}
}
