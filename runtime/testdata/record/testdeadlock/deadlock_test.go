// Expected with `go test` and recording: TestDeadlock blocks forever on a
// receive nobody sends to; go test's -timeout alarm (10 minutes) would fire
// much later, but the recorder reports the global deadlock after about
// GORDIAN_DEADLOCK_MS and the test binary exits with status 3 (go test
// FAILs). The trace has TestStart "TestDeadlock", its ChanRecv never
// completed, and GlobalDeadlock.
package testdeadlock

import "testing"

func TestDeadlock(t *testing.T) {
	ch := make(chan int)
	<-ch
}
