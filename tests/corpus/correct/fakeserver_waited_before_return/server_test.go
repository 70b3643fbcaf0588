// The twin of bugs/fakeserver_logs_after_return: the test's deferred stop
// closes the server's channel and waits until the server has stopped, so
// every log of the server is ordered before the test function returns.
// Expected: no findings.
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
		t.Logf("fake server stopped")
	}()
	return reqs, done
}

func get(srv chan<- request, path string) string {
	r := request{path: path, reply: make(chan string)}
	srv <- r
	return <-r.reply
}

func TestFetchStatus(t *testing.T) {
	srv, stopped := serve(t, 300*time.Millisecond)
	defer func() {
		close(srv)
		<-stopped
	}()
	if got := get(srv, "/status"); got != "200 OK" {
		t.Fatalf("status = %q", got)
	}
}
