// Two goroutines call Do on one Once; which one runs f is up to the
// schedule (schedule_runner_test.cc, ReplayEnforcement.ScheduleChoosesTheOnceDoThatRunsF).
package once

import (
	"sync"
	"testing"
)

func TestTwoDos(t *testing.T) {
	var once sync.Once
	var wg sync.WaitGroup
	wg.Add(2)
	for i := 0; i < 2; i++ {
		go func() {
			defer wg.Done()
			once.Do(func() {})
		}()
	}
	wg.Wait()
}
