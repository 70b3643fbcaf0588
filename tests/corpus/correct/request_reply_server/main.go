// Request/reply over channels: each request carries its own reply channel
// (buffered, one slot), the server goroutine answers every request and exits
// when the request channel is closed; main closes it after its last request
// and waits for the server to exit. A reply never blocks the server, even if
// a client stopped waiting. Expected: no findings.
package main

import (
	"fmt"
	"strings"
)

type Request struct {
	Key   string
	Reply chan string
}

func serve(requests <-chan Request, exited chan<- struct{}) {
	defer close(exited)
	store := map[string]string{"alice": "admin", "bob": "viewer"}
	for r := range requests {
		role, ok := store[strings.ToLower(r.Key)]
		if !ok {
			role = "unknown"
		}
		r.Reply <- role
	}
}

func main() {
	requests := make(chan Request)
	exited := make(chan struct{})
	go serve(requests, exited)
	for _, user := range []string{"Alice", "Bob", "Carol"} {
		req := Request{Key: user, Reply: make(chan string, 1)}
		requests <- req
		fmt.Println(user, "is", <-req.Reply)
	}
	close(requests)
	<-exited
}
