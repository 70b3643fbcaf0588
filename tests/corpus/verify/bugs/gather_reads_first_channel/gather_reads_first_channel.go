// Gather's twin with a typo: collect receives from chans[0] on every
// iteration instead of chans[i], so the first worker's one send is taken,
// the second receive waits for ever while the other workers wait to send:
// every goroutine is blocked.
package gather

func worker(out chan int, v int) {
	out <- v * 2
}

func collect(chans ...chan int) int {
	sum := 0
	for i := range chans {
		_ = i
		sum += <-chans[0] // want: global-deadlock predicted
	}
	return sum
}

func Gather() int {
	a, b, c := make(chan int), make(chan int), make(chan int)
	go worker(a, 1)
	go worker(b, 2)
	go worker(c, 3)
	return collect(a, b, c)
}
