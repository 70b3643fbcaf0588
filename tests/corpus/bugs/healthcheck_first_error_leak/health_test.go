// CheckAll probes every host in its own goroutine and returns the first error
// it receives. The error channel is unbuffered, so after the first error the
// other probes block on their sends forever. In the test every host is
// unreachable, so every probe reports an error and all but one leak.
//
// Expected: goroutine-leak, occurred, chan-send, at the probe's send (the
// leaked goroutines all block on that line).
package health

import (
	"fmt"
	"strings"
	"testing"
)

func probe(host string) error {
	if strings.HasSuffix(host, ".invalid") {
		return fmt.Errorf("%s: no such host", host)
	}
	return nil
}

func CheckAll(hosts []string) error {
	errc := make(chan error)
	for _, h := range hosts {
		go func() {
			errc <- probe(h) // want: goroutine-leak occurred chan-send
		}()
	}
	for range hosts {
		if err := <-errc; err != nil {
			return err
		}
	}
	return nil
}

func TestCheckAllUnreachable(t *testing.T) {
	hosts := []string{"db.invalid", "cache.invalid", "queue.invalid", "search.invalid"}
	if err := CheckAll(hosts); err == nil {
		t.Fatal("expected an error")
	}
}
