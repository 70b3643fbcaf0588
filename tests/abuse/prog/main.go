// A main program for `gordian record run`: scripts/abuse replays its trace
// from another directory, where it must not build whatever that directory
// holds.
package main

import "fmt"

func main() {
	ch := make(chan int, 1)
	ch <- 1
	fmt.Println(<-ch)
}
