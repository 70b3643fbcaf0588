// A test that returns at once when run plainly (gordian fuzz's recording
// run) and sleeps for a minute under a schedule (GORDIAN_SCHEDULE is set
// for every fuzzing run): the interrupt test stops gordian fuzz -j 2 while
// two such runs are in flight and expects neither to be left.
package slowruns

import (
	"os"
	"testing"
	"time"
)

func TestSlow(t *testing.T) {
	if os.Getenv("GORDIAN_SCHEDULE") == "" {
		return
	}
	done := make(chan struct{})
	go func() {
		time.Sleep(60 * time.Second)
		close(done)
	}()
	<-done
}
