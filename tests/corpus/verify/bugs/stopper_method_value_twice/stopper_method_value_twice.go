// Ticker hands its stop method out as a method value: the caller runs it in
// a goroutine and again itself, and stop closes quit without a guard, so the
// second call closes a closed channel.
package stopper

type Ticker struct {
	quit chan struct{}
}

func (t *Ticker) stop() {
	close(t.quit) // want: close-of-closed predicted
}

func Run() {
	t := &Ticker{quit: make(chan struct{})}
	f := t.stop
	go f()
	f()
}
