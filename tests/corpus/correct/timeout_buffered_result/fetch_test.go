// The leak-free version of "fetch with a timeout": the result channel has one
// slot, so the fetching goroutine can always deliver its result and exit, even
// after the caller gave up. The test makes the caller time out (the backend is
// held until after the timeout) and then waits for the fetcher to finish, so
// nothing outlives the test. Expected: no findings.
package fetch

import (
	"errors"
	"testing"
	"time"
)

var errTimeout = errors.New("timeout")

func Fetch(backend func() string, timeout time.Duration, finished chan<- struct{}) (string, error) {
	result := make(chan string, 1)
	go func() {
		defer close(finished)
		result <- backend()
	}()
	select {
	case r := <-result:
		return r, nil
	case <-time.After(timeout):
		return "", errTimeout
	}
}

func TestFetchTimeoutDoesNotLeak(t *testing.T) {
	release := make(chan struct{})
	finished := make(chan struct{})
	_, err := Fetch(func() string { <-release; return "late" }, 10*time.Millisecond, finished)
	close(release)
	<-finished
	if !errors.Is(err, errTimeout) {
		t.Fatalf("got %v", err)
	}
}

func TestFetchInTime(t *testing.T) {
	finished := make(chan struct{})
	r, err := Fetch(func() string { return "fast" }, time.Second, finished)
	<-finished
	if err != nil || r != "fast" {
		t.Fatalf("got %q %v", r, err)
	}
}
