// Gather starts one worker per channel of a slice built from variadic
// arguments and receives once from each element in a range loop: every
// worker's send meets its receive. The model follows the channels through
// the slice's elements (a collection of channels, docs/verify.md).
package gather

func worker(out chan int, v int) {
	out <- v * 2
}

func collect(chans ...chan int) int {
	sum := 0
	for _, ch := range chans {
		sum += <-ch
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
