// A test that fails under recording only: it stands for a timing-sensitive
// test (a write timeout that the recording's slowdown makes expire), made
// deterministic by failing whenever the recorder runs (gordian sets
// GORDIAN_ROOTS, the module roots, in the recorded program's environment).
// gordian test must exit 1, as the test failed, and say that it passes when
// run without recording.
package slowed

import (
	"os"
	"testing"
)

func TestPassesAlways(t *testing.T) {}

func TestFailsWhenRecorded(t *testing.T) {
	done := make(chan struct{})
	go func() { close(done) }()
	<-done
	if os.Getenv("GORDIAN_ROOTS") != "" {
		t.Fatal("timed out: the recording made this test slow")
	}
}
