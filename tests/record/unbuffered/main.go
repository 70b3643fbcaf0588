// Unbuffered channel: one sender goroutine, the main goroutine receives.
//
// The trace must contain: ChanMake (cap 0) at @make; GoSpawn of 1.0 at @go;
// three ChanSend in goroutine 1.0 at @send with seqs 1, 2, 3; three
// ChanRecv in goroutine 1 at @recv with seqs 1, 2, 3, each the exact
// partner of the send with the same seq; every send and receive completed.
package main

import "fmt"

func main() {
	ch := make(chan int) //@make
	go func() { //@go
		for i := 1; i <= 3; i++ {
			ch <- i * 10 //@send
		}
	}()
	sum := 0
	for i := 0; i < 3; i++ {
		sum += <-ch //@recv
	}
	fmt.Println("sum", sum)
}
