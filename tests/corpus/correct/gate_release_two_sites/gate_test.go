// A test parks jobs at a gate and releases them with one token each: two
// jobs wait at the gate inside the job runner, three more at a second
// place (jobs submitted later by other goroutines), all on the same
// `release` channel of struct{}. The five receives at two sites are
// concurrent and which waiter takes which token is up to the scheduler, but
// the tokens are all alike and there is one per waiter, so every job gets
// one and nothing depends on who goes first.
//
// Expected: no findings (in particular no concurrent-recv: that warning is
// about values that differ, such as status strings two readers race for).
package gate

import (
	"sync"
	"testing"
)

func TestGateReleasesEveryJob(t *testing.T) {
	release := make(chan struct{})
	var jobs sync.WaitGroup
	var mu sync.Mutex
	done := 0
	run := func(job func()) {
		jobs.Add(1)
		go func() {
			defer jobs.Done()
			job()
			mu.Lock()
			done++
			mu.Unlock()
		}()
	}
	for i := 0; i < 2; i++ {
		run(func() { <-release })
	}
	var submitters sync.WaitGroup
	for i := 0; i < 3; i++ {
		submitters.Add(1)
		go func() {
			defer submitters.Done()
			run(func() {
				<-release
			})
		}()
	}
	submitters.Wait()
	for i := 0; i < 5; i++ {
		release <- struct{}{}
	}
	jobs.Wait()
	if done != 5 {
		t.Fatalf("%d of 5 jobs finished", done)
	}
}
