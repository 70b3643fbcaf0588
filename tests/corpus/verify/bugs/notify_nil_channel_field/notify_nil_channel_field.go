// A Notifier built without a listener channel still starts its sender:
// the send on the nil field blocks for ever.
package notify

type Notifier struct {
	events chan string
}

func (n *Notifier) emit(e string) {
	n.events <- e // want: goroutine-leak predicted nil-chan
}

func Start(listen bool) {
	n := &Notifier{}
	if listen {
		n.events = make(chan string, 1)
	}
	go n.emit("started")
}
