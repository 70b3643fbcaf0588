// Variables a Cond's predicate loop may read (IR format 2): bool and integer
// fields of structs that hold primitives, captured locals and package
// variables, written as var-new and var-store.
package prims

import "sync"

type Latch struct {
	mu    sync.Mutex
	c     *sync.Cond
	open  bool
	count int
	label string
}

var opened bool

func (l *Latch) Open() {
	l.mu.Lock() // ir: field field=mu prim=mutex addr=1; lock
	l.open = true // ir: var-store cell="(field p0 open)" value=true
	l.count++     // ir: var-store value="(+ (load (field p0 count)) 1)"
	l.label = "x"
	opened = true // ir: var-store cell=g:example.com/prims.opened value=true
	l.c.Broadcast() // ir: field field=c prim=cond addr=1; load prim=cond; cond-broadcast
	l.mu.Unlock()   // ir: field field=mu prim=mutex addr=1; unlock
}

func AwaitDone() {
	var mu sync.Mutex      // ir: alloc prim=mutex
	c := sync.NewCond(&mu) // ir: cond-new
	done := false // ir: var-new type=bool name=done
	go func() { // ir: closure; go
		mu.Lock()   // ir: lock
		done = true // ir: var-store cell=f1 value=true
		c.Signal()  // ir: cond-signal
		mu.Unlock() // ir: unlock
	}()
	mu.Lock() // ir: lock
	for !done {
		c.Wait() // ir: cond-wait
	}
	mu.Unlock() // ir: unlock
}
