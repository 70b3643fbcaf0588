// Run's event loop takes each event but never sends the acknowledgement
// its producer waits for; the producer blocks while the loop runs forever.
package events

import "time"

var seen int

func Run() {
	events := make(chan int)
	acks := make(chan int)
	t := time.NewTicker(time.Second)
	go func() {
		events <- 1
		<-acks // want: partial-deadlock predicted
	}()
	for {
		select {
		case ev := <-events:
			seen += ev
		case <-t.C:
		}
	}
}
