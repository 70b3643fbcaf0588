// select with default, and select between a ready and a nil channel.
//
// The trace must contain: a Select with one case and a default (aux 1,
// kHasDefault) whose chosen value is default (0xffffffff), at @sel1 (the
// compiler turns that select into a non-blocking receive at its case); then a Select at @sel2 with 2 cases, no default, whose
// chosen case is the receive on `ready`; its SelectCase for `ready` has
// kChosen and seq 1, the partner of the ChanSend at @send in goroutine 1.0;
// the case on the nil channel has obj 0.
package main

import "fmt"

func main() {
	empty := make(chan int)
	select {
	case v := <-empty: //@sel1
		fmt.Println("got", v)
	default:
		fmt.Println("default")
	}

	ready := make(chan int)
	var never chan int
	go func() {
		ready <- 7 //@send
	}()
	select { //@sel2
	case v := <-ready:
		fmt.Println("ready", v)
	case never <- 1:
		fmt.Println("impossible")
	}
}
