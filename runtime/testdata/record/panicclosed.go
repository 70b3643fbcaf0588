// Expected: panics with "send on closed channel", exit status 2. Recorded:
// ChanSend val 1, ChanClose val 1, then a ChanSend with kClosed, a Panic
// whose string is "send on closed channel", ProgramExit 2 (aux 2).
package main

func main() {
	ch := make(chan int, 1)
	ch <- 1
	close(ch)
	ch <- 2
}
