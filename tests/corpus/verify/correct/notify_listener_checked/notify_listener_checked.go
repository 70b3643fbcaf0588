// The notifier's twin: without a listener channel no sender is started.
package notify

type Notifier struct {
	events chan string
}

func (n *Notifier) emit(e string) {
	n.events <- e
}

func Start(listen bool) {
	n := &Notifier{}
	if listen {
		n.events = make(chan string, 1)
		go n.emit("started")
	}
}
