// An agent runs a health probe that reports its final status on a one-slot
// status channel. A shutdown goroutine closes that channel after a 50 ms grace
// period, and main reads one status with a plain receive.
//
// Expected, both predicted (the normal run is clean: the probe reports at once,
// main gets "healthy", the close comes 50 ms later):
//   - send-on-closed at the probe's send: the close is not ordered after the
//     send (a sleep is no synchronisation), so the close can come first;
//   - recv-on-closed (warning) at main's receive: in that same schedule main
//     receives the zero value from the closed channel and prints an empty
//     status.
package main

import (
	"fmt"
	"sync"
	"time"
)

type Status struct {
	Name    string
	Healthy bool
}

func probe(name string, status chan<- Status) {
	ok := len(name) > 0
	status <- Status{Name: name, Healthy: ok} // want: send-on-closed predicted
}

func main() {
	status := make(chan Status, 1)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		probe("db-primary", status)
	}()
	go func() {
		defer wg.Done()
		time.Sleep(50 * time.Millisecond) // grace period
		close(status)
	}()

	st := <-status // want: recv-on-closed predicted
	fmt.Printf("%s healthy=%v\n", st.Name, st.Healthy)
	wg.Wait()
}
