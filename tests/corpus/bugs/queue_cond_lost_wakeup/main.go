// A job queue signals a sync.Cond on every Put. Its consumer waits on the
// condition without first checking whether the queue is already non-empty.
// main puts a job before it starts the consumer, so the only Signal is lost
// and the consumer waits forever; main waits for the consumer's result. A
// session-expiry time.AfterFunc is pending (its callback only logs), so Go's
// detector stays silent and the plain program hangs.
//
// Expected: global-deadlock, occurred: the consumer's cond.Wait and main's
// receive from results.
package main

import (
	"fmt"
	"log"
	"sync"
	"time"
)

type Queue struct {
	mu    sync.Mutex
	cond  *sync.Cond
	items []string
}

func NewQueue() *Queue {
	q := &Queue{}
	q.cond = sync.NewCond(&q.mu)
	return q
}

func (q *Queue) Put(item string) {
	q.mu.Lock()
	q.items = append(q.items, item)
	q.mu.Unlock()
	q.cond.Signal()
}

func (q *Queue) Take() string {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.cond.Wait() // want: global-deadlock occurred
	item := q.items[0]
	q.items = q.items[1:]
	return item
}

func main() {
	expiry := time.AfterFunc(30*time.Minute, func() { log.Println("sessions expired") })
	defer expiry.Stop()

	q := NewQueue()
	q.Put("send-welcome-mail")

	results := make(chan string)
	go func() { results <- "done: " + q.Take() }()
	fmt.Println(<-results) // want: global-deadlock occurred
}
