// Lookup runs a query in a goroutine and waits for either its result or the
// caller's cancellation (a done channel, context style). The result channel is
// unbuffered. The test cancels 50 ms after the call, as a deadline would.
//
// Expected: goroutine-leak, predicted, chan-send, at the send of the result.
// In the normal run the query answers at once and Lookup receives it; the
// cancellation comes later. The close of done is not ordered after the send:
// if it comes first, Lookup's select may take the done case and return, and
// the query goroutine blocks on its send forever.
package fetch

import (
	"errors"
	"sync"
	"testing"
	"time"
)

var errCanceled = errors.New("lookup canceled")

func query(name string) string { return "10.0.0." + string(rune('0'+len(name)%10)) }

func Lookup(done <-chan struct{}, name string) (string, error) {
	result := make(chan string)
	go func() {
		result <- query(name) // want: goroutine-leak predicted chan-send
	}()
	select {
	case addr := <-result:
		return addr, nil
	case <-done:
		return "", errCanceled
	}
}

func TestLookup(t *testing.T) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		time.Sleep(50 * time.Millisecond) // deadline
		close(done)
	}()
	addr, err := Lookup(done, "db")
	if err != nil || addr == "" {
		t.Fatalf("got %q, %v", addr, err)
	}
	wg.Wait()
}
