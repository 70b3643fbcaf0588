// Expected: prints "n 4", "closed 0 false", "default" and exits 0.
// Recorded in main: four 2-case Selects (sends 0, receives 2: case index 0
// is b, 1 is a, since receives are laid out in reverse source order), each
// with exactly one kChosen case whose val pairs with a ChanSend of the
// worker; a ChanRecv of done (a chan struct{}: kZeroSize); a 1-case Select
// with kHasDefault whose case (on done: kZeroSize) is chosen with kClosed;
// a 1-case send Select that takes the default (val 0xffffffff); a ChanRecv
// of a time.After channel (a library channel used by user code, val 1, with
// no recorded partner); a 3-case Select with a nil channel case (obj 0).
package main

import (
	"fmt"
	"time"
)

func main() {
	a := make(chan int)
	b := make(chan string, 1)
	done := make(chan struct{})
	go func() {
		for i := 0; i < 3; i++ {
			a <- i
		}
		b <- "x"
		close(done)
	}()
	n := 0
	for n < 4 {
		select {
		case <-a:
			n++
		case <-b:
			n++
		}
	}
	fmt.Println("n", n)
	<-done
	select {
	case v, ok := <-done:
		fmt.Println("closed", len(fmt.Sprint(v))-2, ok)
	default:
	}
	select {
	case a <- 1:
	default:
		fmt.Println("default")
	}
	<-time.After(time.Millisecond)
	var nilch chan int
	c := make(chan int, 1)
	c <- 5
	select {
	case <-nilch:
	case v := <-c:
		_ = v
	case nilch <- 1:
	}
}
