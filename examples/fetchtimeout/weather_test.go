// Fetch with a timeout. Forecast asks a slow backend in a goroutine and waits
// at most 20 ms for the answer. The test passes: it expects the timeout.
//
// Bug: the result channel is unbuffered. Once Forecast has returned with the
// timeout, nobody will ever receive, so the goroutine that finally gets the
// backend's answer blocks on its send forever: it outlives the test (a
// goroutine leak that go test does not notice). Fix: make(chan string, 1).
//
// gordian reports: goroutine-leak, occurred, chan-send, at the send.
package weather

import (
	"errors"
	"testing"
	"time"
)

var ErrTimeout = errors.New("weather: backend timeout")

func Forecast(city string, backend func(string) string) (string, error) {
	result := make(chan string)
	go func() {
		result <- backend(city) // want: goroutine-leak occurred chan-send
	}()
	select {
	case f := <-result:
		return f, nil
	case <-time.After(20 * time.Millisecond):
		return "", ErrTimeout
	}
}

func TestForecastTimesOut(t *testing.T) {
	slow := make(chan struct{})
	backend := func(city string) string {
		<-slow // the backend answers only after the caller gave up
		return "sunny in " + city
	}
	_, err := Forecast("Lisbon", backend)
	close(slow)
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("got %v, want a timeout", err)
	}
}
