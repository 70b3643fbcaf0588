// A task dispatcher waits for a start signal before it takes tasks from an
// unbuffered queue. main enqueues the first task before it signals start, so
// main waits for the dispatcher and the dispatcher waits for main. An hourly
// report timer (time.AfterFunc) is pending, so Go's runtime does not report the
// deadlock: the plain program hangs. The timer's callback only logs; it cannot
// unblock anything.
//
// Expected: global-deadlock, occurred: main's send on tasks and the
// dispatcher's receive from start.
package main

import (
	"fmt"
	"log"
	"time"
)

type Task struct {
	Name string
	Cost int
}

func dispatch(start <-chan struct{}, tasks <-chan Task, done chan<- int) {
	<-start // want: global-deadlock occurred
	total := 0
	for t := range tasks {
		total += t.Cost
	}
	done <- total
}

func main() {
	report := time.AfterFunc(time.Hour, func() { log.Println("hourly report") })
	defer report.Stop()

	start := make(chan struct{})
	tasks := make(chan Task)
	done := make(chan int)
	go dispatch(start, tasks, done)

	for _, t := range []Task{{"resize", 3}, {"encode", 5}} {
		tasks <- t // want: global-deadlock occurred
	}
	close(start)
	close(tasks)
	fmt.Println("total cost", <-done)
}
