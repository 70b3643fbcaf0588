// A file watcher makes its events channel only when the caller asks for
// events (WithEvents). Stop always closes the events channel, also for a
// watcher built without it, where the channel is nil.
//
// Expected: close-of-nil, occurred, at the close in Stop. The test stops a
// watcher built without events after its poll loop has exited, every run.
package watcher

import (
	"testing"
)

type Event struct{ Path string }

type Watcher struct {
	paths  []string
	events chan Event
	quit   chan struct{}
	exited chan struct{}
}

func New(paths []string, withEvents bool) *Watcher {
	w := &Watcher{paths: paths, quit: make(chan struct{}), exited: make(chan struct{})}
	if withEvents {
		w.events = make(chan Event, len(paths))
	}
	go w.poll()
	return w
}

func (w *Watcher) poll() {
	defer close(w.exited)
	for _, p := range w.paths {
		if w.events != nil {
			w.events <- Event{Path: p}
		}
	}
	<-w.quit
}

func (w *Watcher) Stop() {
	close(w.quit)
	<-w.exited
	close(w.events) // want: close-of-nil occurred
}

func TestWatcherWithEvents(t *testing.T) {
	w := New([]string{"a.conf", "b.conf"}, true)
	if e := <-w.events; e.Path != "a.conf" {
		t.Fatalf("first event %q", e.Path)
	}
	w.Stop()
}

func TestWatcherWithoutEvents(t *testing.T) {
	w := New([]string{"a.conf"}, false)
	w.Stop()
}
