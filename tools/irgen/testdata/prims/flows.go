// Where primitives flow: struct fields, globals, closure captures, returns,
// method values; and the less common operations.
package prims

import (
	"context"
	"sync"
	"time"
)

var events = make(chan string, 8) // ir: make-chan cap=8

type Job struct {
	done chan bool
	wg   *sync.WaitGroup
}

func NewJob() *Job {
	j := &Job{}
	j.done = make(chan bool, 1) // ir: make-chan cap=1; field field=done prim=chan addr=1; store prim=chan
	return j // ir: return
}

func (j *Job) Finish() {
	j.done <- true // ir: field field=done prim=chan; send
	events <- "finished" // ir: load prim=chan; send
}

func Results() <-chan int {
	out := make(chan int) // ir: make-chan cap=0
	go func() { // ir: go mode=closure; closure
		defer close(out) // ir: close via=defer
		out <- 1 // ir: send
	}()
	return out // ir: return
}

func MethodValue(j *Job) {
	f := j.Finish
	go f() // ir: go mode=closure calls=Finish$bound
}

func Rare(m *sync.RWMutex, o *sync.Once, t *time.Timer, wg *sync.WaitGroup, d time.Duration) {
	if m.TryLock() { // ir: trylock
		m.Unlock() // ir: unlock
	}
	wg.Go(func() {}) // ir: wg-go
	t.Reset(d) // ir: timer-reset dur=p4
	tick := time.Tick(d) // ir: timer-tick dur=p4
	<-tick // ir: recv
	time.AfterFunc(d, func() {}) // ir: timer-afterfunc dur=p4
	ctx, cancel := context.WithTimeout(context.Background(), d) // ir: ctx-timeout dur=p4; ctx-root
	defer cancel() // ir: cancel via=defer
	<-ctx.Done() // ir: ctx-done; recv
	time.Sleep(d) // ir: sleep dur=p4
}
