// Pair's twin: one slot of buffer.
package pair

func Pair() int {
	ch := make(chan int, 1)
	ch <- 1
	return <-ch
}
