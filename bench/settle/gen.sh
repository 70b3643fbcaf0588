#!/usr/bin/env bash
# Writes a Go test package of 200 tests into DIR (bench/run-settle-bench).
# The mix is what a real suite leaves behind at its test ends:
#   100 tests whose goroutines all finish before the test returns;
#    50 tests with a ticker janitor stopped by t.Cleanup (parked on a live
#       ticker when the test function returns);
#    40 tests with a goroutine that finishes 2 ms after the test returns
#       (an asynchronous flush);
#    10 tests with a goroutine asleep for a minute (a slow poller).
set -euo pipefail
dir=$1
mkdir -p "$dir"
printf 'module example.com/settlebench\n\ngo 1.24\n' > "$dir/go.mod"
{
  cat <<'GO'
package settlebench

import (
	"sync"
	"testing"
	"time"
)

func work(t *testing.T) {
	var wg sync.WaitGroup
	ch := make(chan int, 4)
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() { defer wg.Done(); ch <- i }()
	}
	wg.Wait()
	close(ch)
	sum := 0
	for v := range ch {
		sum += v
	}
	if sum != 6 {
		t.Fatal(sum)
	}
}

func janitor(t *testing.T) {
	stop := make(chan struct{})
	tk := time.NewTicker(time.Millisecond)
	t.Cleanup(func() { tk.Stop(); close(stop) })
	go func() {
		for {
			select {
			case <-tk.C:
			case <-stop:
				return
			}
		}
	}()
	work(t)
}

func asyncFlush(t *testing.T) {
	var mu sync.Mutex
	go func() {
		time.Sleep(2 * time.Millisecond)
		mu.Lock()
		mu.Unlock()
	}()
	work(t)
}

func slowPoller(t *testing.T) {
	go func() {
		for {
			time.Sleep(time.Minute)
		}
	}()
	work(t)
}
GO
  for i in $(seq 1 200); do
    if ((i <= 100)); then f=work
    elif ((i <= 150)); then f=janitor
    elif ((i <= 190)); then f=asyncFlush
    else f=slowPoller; fi
    printf '\nfunc Test%03d(t *testing.T) { %s(t) }\n' "$i" "$f"
  done
} > "$dir/settle_test.go"
