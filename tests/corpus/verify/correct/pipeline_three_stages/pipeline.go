// Pipeline: generate n values, square them, sum them; each stage closes
// its output when done.
package pipeline

func gen(n int) <-chan int {
	out := make(chan int)
	go func() {
		for i := 0; i < n; i++ {
			out <- i
		}
		close(out)
	}()
	return out
}

func square(in <-chan int) <-chan int {
	out := make(chan int)
	go func() {
		for v := range in {
			out <- v * v
		}
		close(out)
	}()
	return out
}

func Pipeline(n int) int {
	sum := 0
	for v := range square(gen(n)) {
		sum += v
	}
	return sum
}
