// Expected: prints "main done" and exits 0. Recorded: ProgramExit (main
// returned) with kExitChecked, after the exit check has settled: a
// BlockedAtTestEnd with val 0 for exactly two goroutines, the one waiting
// on a stopped timer's channel (ChanRecv) and the one that sleeps 50 ms and
// then sends on a channel nobody receives from (ChanSend, a late leak). The
// ticker janitor and the goroutine waiting on a context deadline an hour
// away are waiting on something alive.
package main

import (
	"context"
	"fmt"
	"time"
)

func main() {
	tk := time.NewTicker(2 * time.Millisecond)
	go func() {
		for range tk.C {
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	go func() { <-ctx.Done() }()
	tm := time.NewTimer(time.Hour)
	go func() { <-tm.C }()
	late := make(chan int)
	go func() {
		time.Sleep(50 * time.Millisecond)
		late <- 1
	}()
	time.Sleep(5 * time.Millisecond)
	tm.Stop()
	fmt.Println("main done")
}
