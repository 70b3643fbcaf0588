// A cgo program: C code called from several goroutines.
//
// The trace must contain: two ChanSend at @send (goroutines 1.0 and 1.1)
// and two ChanRecv at @recv in goroutine 1, paired by seq; cgo must not
// disturb recording. The program prints 5 and 9.
package main

/*
static int add(int a, int b) { return a + b; }
*/
import "C"

import "fmt"

func main() {
	ch := make(chan int)
	for i := 0; i < 2; i++ {
		go func(i int) {
			ch <- int(C.add(C.int(2+i*4), 3)) //@send
		}(i)
	}
	a, b := <-ch, <-ch //@recv
	if a > b {
		a, b = b, a
	}
	fmt.Println(a, b)
}
