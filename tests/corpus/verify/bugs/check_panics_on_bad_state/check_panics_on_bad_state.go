// Check panics on a path that depends on data.
package check

func Check(bad bool) int {
	ch := make(chan int, 1)
	ch <- 1
	if bad {
		panic("bad state") // want: panic predicted
	}
	return <-ch
}
