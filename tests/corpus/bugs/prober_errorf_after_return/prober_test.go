// A health prober: the test starts a background probe of a fake backend and
// returns at once. The probe waits 20 ms for the backend to settle, finds it
// unhealthy, and reports with t.Errorf, on the T of a test that nobody keeps
// alive for it.
//
// Expected: testing-after-end, predicted, at the t.Errorf. Nothing orders the
// call before the test's end (the test does not wait for the probe), so in a
// schedule where the test has completed first Go panics with "Fail in
// goroutine after TestProbeBackend has completed" (or the failure is lost
// when the binary exits first, as in a plain run). Under gordian the test's
// end waits for the sleeping probe, which then fails the test.
package prober

import (
	"testing"
	"time"
)

type backend struct{ healthy bool }

func (b *backend) ping() bool { return b.healthy }

func probe(t *testing.T, b *backend, settle time.Duration) {
	time.Sleep(settle)
	if !b.ping() {
		t.Errorf("backend unhealthy after %v", settle) // want: testing-after-end predicted
	}
}

func TestProbeBackend(t *testing.T) {
	b := &backend{healthy: false}
	go probe(t, b, 20*time.Millisecond)
}
