// Expected with `go test`: PASS. Recorded: one TestCall per call of a
// reporting method made here, none for the calls package testing makes
// itself (Skip calls SkipNow): in TestCalls' goroutine two logs (t.Log, and
// tb.Log through the testing.TB interface, in logVia); in the
// goroutine it waits for, a log on TestCalls' T; in TestCalls/sub's
// goroutine, with the subtest's own index, a log and a skip-now.
package testcalls

import (
	"sync"
	"testing"
)

func TestCalls(t *testing.T) {
	t.Log("own")
	logVia(t, "through TB")
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t.Logf("from %s", "a goroutine")
	}()
	wg.Wait()
	t.Run("sub", func(t *testing.T) {
		t.Log("sub")
		t.Skip("skipped")
	})
}

func logVia(tb testing.TB, s string) { tb.Log(s) }
