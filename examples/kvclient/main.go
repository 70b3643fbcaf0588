// A client pipelines two requests to a key-value server: it sends both
// requests and only then reads the replies. The server answers each request
// on the client's unbuffered reply channel before it takes the next request.
//
// Bug: after the first request, the server waits for the client to read the
// first reply, and the client waits for the server to take the second
// request. Every goroutine is blocked: a global deadlock (Go's runtime also
// says "all goroutines are asleep").
//
// gordian reports: global-deadlock, occurred, with the two blocked operations:
// the client's second send and the server's reply send.
package main

import "fmt"

type Request struct {
	Key   string
	Reply chan string
}

func server(requests <-chan Request) {
	data := map[string]string{"color": "blue", "size": "XL"}
	for req := range requests {
		req.Reply <- data[req.Key] // want: global-deadlock occurred
	}
}

func main() {
	requests := make(chan Request)
	go server(requests)

	replies := make(chan string)
	for _, key := range []string{"color", "size"} {
		requests <- Request{Key: key, Reply: replies} // want: global-deadlock occurred
	}
	fmt.Println(<-replies, <-replies)
}
