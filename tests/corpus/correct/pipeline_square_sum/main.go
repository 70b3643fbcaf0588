// A three-stage pipeline: gen emits numbers, square squares them, and main
// sums them. Each stage owns its output channel and closes it after its last
// send, so the next stage's range loop ends; main reads until the end. Every
// goroutine has exited when main prints. Expected: no findings.
package main

import "fmt"

func gen(nums ...int) <-chan int {
	out := make(chan int)
	go func() {
		defer close(out)
		for _, n := range nums {
			out <- n
		}
	}()
	return out
}

func square(in <-chan int) <-chan int {
	out := make(chan int, 2)
	go func() {
		defer close(out)
		for n := range in {
			out <- n * n
		}
	}()
	return out
}

func main() {
	sum := 0
	for v := range square(square(gen(1, 2, 3, 4))) {
		sum += v
	}
	fmt.Println("sum of fourth powers:", sum)
}
