// Goroutines in a loop, from closures, methods and generic functions.
//
// The trace must contain: five goroutines spawned at @loop with stable ids
// 1.0 .. 1.4 (child index = spawn order), each sending once at @loopsend;
// a goroutine running the method (*server).run (site function
// "main.(*server).run") spawned at @method as 1.5, which spawns its own
// child 1.5.0 at @nested; a goroutine running the generic send[string]
// spawned at @generic as 1.6, whose ChanSend site's function starts with
// "main.send[".
package main

import (
	"fmt"
	"sync"
)

type server struct {
	out chan int
	wg  *sync.WaitGroup
}

func (s *server) run() {
	defer s.wg.Done()
	done := make(chan bool)
	go func() { //@nested
		done <- true
	}()
	<-done
	s.out <- 100 //@methodsend
}

func send[T any](ch chan T, v T) {
	ch <- v //@genericsend
}

func main() {
	var wg sync.WaitGroup
	results := make(chan int, 5)
	for i := 0; i < 5; i++ {
		go func() { //@loop
			results <- i //@loopsend
		}()
	}
	sum := 0
	for i := 0; i < 5; i++ {
		sum += <-results
	}
	s := &server{out: make(chan int), wg: &wg}
	wg.Add(1)
	go s.run() //@method
	sum += <-s.out
	wg.Wait()
	strs := make(chan string)
	go send(strs, "generic") //@generic
	fmt.Println(sum, <-strs)
}
