// Expected: prints "locked 2000000", then "hwm_kb N" (the process's peak
// resident memory, from /proc/self/status) and exits 0.
// A waiter goroutine takes the mutex once and blocks on a channel; main
// then locks and unlocks the mutex 2,000,000 times (4M records, 96 MB of
// trace) and finally wakes the waiter, which takes the mutex once more.
// Recorded, the pages of the trace file's old chunks leave the process
// (the recorder drops them), so its peak stays far below the trace's
// size, and the waiter's receive, whose record sits in a chunk dropped
// long before, is still completed in place.
package main

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"sync"
)

func main() {
	var mu sync.Mutex
	wake := make(chan int)
	done := make(chan bool)
	go func() {
		mu.Lock()
		mu.Unlock()
		<-wake
		mu.Lock()
		mu.Unlock()
		done <- true
	}()
	n := 0
	for i := 0; i < 2000000; i++ {
		mu.Lock()
		n++
		mu.Unlock()
	}
	wake <- 1
	<-done
	fmt.Println("locked", n)
	f, err := os.Open("/proc/self/status")
	if err != nil {
		fmt.Println("hwm_kb 0")
		return
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if line := s.Text(); strings.HasPrefix(line, "VmHWM:") {
			kb := strings.TrimSuffix(strings.TrimPrefix(line, "VmHWM:"), "kB")
			fmt.Println("hwm_kb", strings.TrimSpace(kb))
		}
	}
}
