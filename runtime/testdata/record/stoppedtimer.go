// Expected with GORDIAN_DEADLOCK_MS=300: the watchdog reports a global
// deadlock (exit status 3): main waits on the channel of a timer it stopped,
// which never fires, and a worker waits on a channel nobody sends on. A
// stopped timer is no sender. (Without recording Go's own detector reports
// "all goroutines are asleep".) The go:debug line asks for Go 1.23's
// timer channels (hchan.timer set) whatever the language version of a
// file built outside a module.
//go:debug asynctimerchan=0
package main

import "time"

func main() {
	never := make(chan int)
	go func() { <-never }()
	tm := time.NewTimer(time.Hour)
	tm.Stop()
	<-tm.C
}
