// Collections of primitives (IR format 2): a local array or make([]T, n)
// of primitives is a `sized` collection, its elements `copy how=index`
// with the index as at=, and a slice of the array passed on names it (src=).
package prims

import "sync"

func drain(chans ...chan int) {
	for _, ch := range chans { // ir: copy how=index prim=chan at="(+ t1 1)"
		<-ch // ir: recv
	}
}

func Collect(a, b chan int) {
	drain(a, b) // ir: sized len=2; copy how=index prim=chan at=0; store prim=chan; copy how=index prim=chan at=1; store prim=chan; sized len=2 src=t0; call mode=static calls=drain
}

func Shards(n int) {
	locks := make([]sync.Mutex, n) // ir: sized len=p0
	locks[0].Lock()                // ir: copy how=index prim=mutex at=0; lock
	locks[0].Unlock()              // ir: copy how=index prim=mutex at=0; unlock
}
