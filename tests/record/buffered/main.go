// Buffered channel, close, range.
//
// The trace must contain: ChanMake with capacity 2 at @make; two ChanSend
// at @send (seq 1, 2) that complete without a receiver (both before the
// first receive starts); ChanClose at @close with val 2 (values sent before
// the close); two ChanRecv at @range with seq 1, 2 and then one ChanRecv at
// @range with the kClosed flag and val 0 (the range loop ending).
package main

import "fmt"

func main() {
	ch := make(chan string, 2) //@make
	ch <- "a" //@send
	ch <- "b" //@send
	close(ch) //@close
	for s := range ch { //@range
		fmt.Println(s)
	}
}
