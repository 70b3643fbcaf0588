// Calls the call graph resolves: an interface method and a function value.
package prims

type Stopper interface{ Stop() }

type chanStopper struct{ c chan int }

func (s chanStopper) Stop() {
	close(s.c) // ir: close
}

type nopStopper struct{}

func (nopStopper) Stop() {}

func StopAll(n int) {
	var s Stopper = chanStopper{c: make(chan int)} // ir: make-chan cap=0
	if n > 0 {
		s = nopStopper{}
	}
	s.Stop() // ir: call mode=invoke calls=chanStopper.Stop,nopStopper.Stop
	apply(helper, n) // ir: call mode=static calls=apply
}

func apply(f func(int), n int) {
	f(n) // ir: call mode=dynamic calls=helper
}

func helper(n int) {}

// A callback a goroutine's closure calls: the variable the closure
// captures is given the callback once, and the goroutine loads it.
func startWith(ch chan int, spawn func(func())) {
	spawn(func() {
		close(ch) // ir: close
	})
}

func runCallback(f func()) {
	go func() { // ir: copy how=func src=p0; go mode=closure
		f() // ir: copy how=func src=f0; call mode=dynamic
	}()
}
