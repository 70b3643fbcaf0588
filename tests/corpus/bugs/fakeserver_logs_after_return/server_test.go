// A test helper starts a fake server for the test: a goroutine that serves
// requests from a channel, logs each one on the test's T, and, once the
// channel is closed, lingers 300 ms for connections still open and logs
// that it stopped. The test defers the close and returns without waiting
// for the server to stop: the server logs "stopped" with t.Logf after the
// test function has returned.
//
// Expected: testing-after-end, occurred, at the t.Logf of the stop. The
// logs of the requests are ordered before the test's end (the test waits
// for each reply). In a plain run the test binary exits during the linger
// and the log is lost; in a binary that lives on (more tests) Go panics
// with "Log in goroutine after TestFetchStatus has completed". Under
// gordian the test's end waits for the sleeping server (settling), whose
// call then lands after the test function returned.
package fakeserver

import (
	"testing"
	"time"
)

type request struct {
	path  string
	reply chan string
}

// serve starts the fake server; closing the returned channel stops it, and
// stopped is closed once it has stopped.
func serve(t *testing.T, linger time.Duration) (srv chan<- request, stopped <-chan struct{}) {
	reqs := make(chan request)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for r := range reqs {
			t.Logf("GET %s", r.path)
			r.reply <- "200 OK"
		}
		time.Sleep(linger) // let open connections finish
		t.Logf("fake server stopped") // want: testing-after-end occurred
	}()
	return reqs, done
}

func get(srv chan<- request, path string) string {
	r := request{path: path, reply: make(chan string)}
	srv <- r
	return <-r.reply
}

func TestFetchStatus(t *testing.T) {
	srv, _ := serve(t, 300*time.Millisecond)
	defer close(srv)
	if got := get(srv, "/status"); got != "200 OK" {
		t.Fatalf("status = %q", got)
	}
}
