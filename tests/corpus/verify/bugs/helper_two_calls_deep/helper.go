// Run's leak is two calls down: start makes the channel and the sender,
// run forgets to receive.
package helper

func start() chan int {
	ch := make(chan int)
	go func() {
		ch <- 1 // want: goroutine-leak predicted chan-send
	}()
	return ch
}

func prepare() chan int { return start() }

func Run(skip bool) int {
	ch := prepare()
	if skip {
		return 0
	}
	return <-ch
}
