// A Tracker holds a *sync.WaitGroup that it passes to each job; a failing
// job reports Done on its error path and again in the deferred Done, which
// takes the counter below zero.
package tracker

import "sync"

type Tracker struct {
	wg *sync.WaitGroup
}

func job(t Tracker, fail bool) {
	defer t.wg.Done() // want: negative-waitgroup predicted
	if fail {
		t.wg.Done()
		return
	}
}

func RunAll(fail bool) {
	t := Tracker{wg: &sync.WaitGroup{}}
	t.wg.Add(1)
	go job(t, fail)
	t.wg.Wait()
}
