// A health prober, done right: the test starts a background probe of a fake
// backend and waits for it with a WaitGroup before it returns. The probe
// waits 20 ms, then logs the backend's state with t.Logf (and would fail the
// test with t.Errorf if it were unhealthy).
//
// Nothing is wrong: the probe's t.Logf happens before its Done, and the test
// returns only after Wait, so the call is ordered before the test's end in
// every schedule. gordian must report nothing.
package prober

import (
	"sync"
	"testing"
	"time"
)

type backend struct{ healthy bool }

func (b *backend) ping() bool { return b.healthy }

func probe(t *testing.T, b *backend, settle time.Duration) {
	time.Sleep(settle)
	if !b.ping() {
		t.Errorf("backend unhealthy after %v", settle)
		return
	}
	t.Logf("backend healthy after %v", settle)
}

func TestProbeBackend(t *testing.T) {
	b := &backend{healthy: true}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		probe(t, b, 20*time.Millisecond)
	}()
	wg.Wait()
}
