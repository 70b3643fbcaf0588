// Emit writes to a Sink: one of its implementations sends on an
// unbuffered channel nobody reads.
package sink

type Sink interface{ Put(v int) }

type chanSink struct{ ch chan int }

func (s chanSink) Put(v int) { s.ch <- v } // want: global-deadlock predicted

type nopSink struct{}

func (nopSink) Put(int) {}

func Emit(useChan bool) {
	var s Sink = nopSink{}
	if useChan {
		s = chanSink{ch: make(chan int)}
	}
	s.Put(1)
}
