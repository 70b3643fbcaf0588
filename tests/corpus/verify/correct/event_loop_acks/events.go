// Run's twin: the loop acknowledges each event.
package events

import "time"

var seen int

func Run() {
	events := make(chan int)
	acks := make(chan int)
	t := time.NewTicker(time.Second)
	go func() {
		events <- 1
		<-acks
	}()
	for {
		select {
		case ev := <-events:
			seen += ev
			acks <- ev
		case <-t.C:
		}
	}
}
