// A health prober: the test starts a background probe of a fake backend and
// returns at once. The probe waits 300 ms for the backend to settle, finds
// it unhealthy, and reports with t.Errorf, on the T of a test that nobody
// keeps alive for it.
//
// Expected: testing-after-end, occurred, at the t.Errorf: it runs after the
// test function has returned, and nothing orders it before the test's end
// (the test does not wait for the probe). In a plain run the test binary
// exits before the probe wakes, and the failure is lost; in a run where the
// binary lives on (more tests), the test has completed and Go panics with
// "Log in goroutine after TestProbeBackend has completed". Under gordian
// the test's end waits for the sleeping probe (settling), whose call then
// lands after the test function returned, and fails the test.
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
		t.Errorf("backend unhealthy after %v", settle) // want: testing-after-end occurred
	}
}

func TestProbeBackend(t *testing.T) {
	b := &backend{healthy: false}
	go probe(t, b, 300*time.Millisecond)
}
