#!/usr/bin/env bash
# Writes the Go test packages of bench/run-race-bench into DIR, one package
# per shape, each a single test, with the sizes of the environment (the
# defaults are the sizes of docs/scale.md, "Against go test -race"):
#   workerpool  TASKS tasks (100000) through WORKERS workers (8): a buffered
#               task queue, a results channel, a mutex-guarded total and a
#               WaitGroup, as a worker-pool library's tests do;
#   goroutines  GOROUTINES short goroutines (100000), each one buffered send,
#               one receive and one Lock/Unlock, then Done;
#   pipeline    MESSAGES messages (1000000) through three stages joined by
#               unbuffered channels, the last one summing under a mutex;
#   reporter    goroutines with one bug: the program of
#               tests/scale/short_goroutines_untracked_reporter with
#               GOROUTINES workers instead of 20,000 (gordian must find its
#               predicted send-on-closed, and nothing else).
# Every test checks its result, so a run that loses work fails.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=$1
tasks=${TASKS:-100000}
workers=${WORKERS:-8}
goroutines=${GOROUTINES:-100000}
messages=${MESSAGES:-1000000}

pkg() {  # pkg NAME: the module of one shape, its test on stdin
  mkdir -p "$dir/$1"
  printf 'module example.com/racebench/%s\n\ngo 1.24\n' "$1" > "$dir/$1/go.mod"
  cat > "$dir/$1/$1_test.go"
}

pkg workerpool <<GO
package workerpool

import (
	"sync"
	"testing"
)

type pool struct {
	tasks   chan func() int
	results chan int
	wg      sync.WaitGroup
}

func newPool(workers int) *pool {
	p := &pool{tasks: make(chan func() int, 64), results: make(chan int, 64)}
	for i := 0; i < workers; i++ {
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			for task := range p.tasks {
				p.results <- task()
			}
		}()
	}
	go func() { p.wg.Wait(); close(p.results) }()
	return p
}

func TestWorkerPool(t *testing.T) {
	const tasks = $tasks
	p := newPool($workers)
	var mu sync.Mutex
	total, seen := 0, 0
	done := make(chan struct{})
	go func() {
		defer close(done)
		for r := range p.results {
			mu.Lock()
			total += r
			seen++
			mu.Unlock()
		}
	}()
	for i := 0; i < tasks; i++ {
		p.tasks <- func() int { return i % 7 }
	}
	close(p.tasks)
	<-done
	want := 0
	for i := 0; i < tasks; i++ {
		want += i % 7
	}
	if seen != tasks || total != want {
		t.Fatalf("got %d results totalling %d, want %d totalling %d", seen, total, tasks, want)
	}
}
GO

pkg goroutines <<GO
package goroutines

import (
	"sync"
	"testing"
)

func TestShortGoroutines(t *testing.T) {
	const n = $goroutines
	in := make(chan int, n)
	out := make(chan int, n)
	for i := 0; i < n; i++ {
		in <- i
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	sum := 0
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v := <-in
			out <- v
			mu.Lock()
			sum += v
			mu.Unlock()
		}()
	}
	wg.Wait()
	close(out)
	count := 0
	for range out {
		count++
	}
	if count != n || sum != n*(n-1)/2 {
		t.Fatalf("got %d values summing to %d", count, sum)
	}
}
GO

pkg pipeline <<GO
package pipeline

import (
	"sync"
	"testing"
)

func TestPipeline(t *testing.T) {
	const n = $messages
	source := make(chan int)
	squared := make(chan int)
	var mu sync.Mutex
	sum := 0
	done := make(chan struct{})
	go func() {
		for i := 0; i < n; i++ {
			source <- i
		}
		close(source)
	}()
	go func() {
		for v := range source {
			squared <- v % 1000 * (v % 1000)
		}
		close(squared)
	}()
	go func() {
		defer close(done)
		for v := range squared {
			mu.Lock()
			sum += v
			mu.Unlock()
		}
	}()
	<-done
	want := 0
	for i := 0; i < n; i++ {
		want += i % 1000 * (i % 1000)
	}
	if sum != want {
		t.Fatalf("sum %d, want %d", sum, want)
	}
}
GO

reporter=$here/../../tests/scale/short_goroutines_untracked_reporter/report_test.go
sed "s/^const workers = 20000\$/const workers = $goroutines/" "$reporter" | pkg reporter
grep -q "^const workers = $goroutines\$" "$dir/reporter/reporter_test.go" ||
  { echo "gen.sh: no 'const workers = 20000' in $reporter" >&2; exit 1; }
