// Run's twin: the channel is drained on both paths.
package helper

func start() chan int {
	ch := make(chan int)
	go func() {
		ch <- 1
	}()
	return ch
}

func prepare() chan int { return start() }

func Run(skip bool) int {
	ch := prepare()
	v := <-ch
	if skip {
		return 0
	}
	return v
}
