// Pair sends to itself on an unbuffered channel.
package pair

func Pair() int {
	ch := make(chan int)
	ch <- 1 // want: global-deadlock predicted
	return <-ch
}
