// A worker pool done right: the producer closes jobs when it has sent them
// all, each worker calls Done when its range loop ends, and a separate
// goroutine closes results after wg.Wait, so the collector's range loop ends.
// Every send has a receiver in every schedule, every channel is closed exactly
// once by its only sender side, and all goroutines have exited when Process
// returns. Expected: no findings.
package workerpool

import (
	"sort"
	"sync"
	"testing"
)

type Result struct {
	ID    int
	Words int
}

func Process(docs []string, workers int) []Result {
	jobs := make(chan int)
	results := make(chan Result)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for id := range jobs {
				n := 0
				for i, c := range docs[id] {
					if c != ' ' && (i == 0 || docs[id][i-1] == ' ') {
						n++
					}
				}
				results <- Result{id, n}
			}
		}()
	}
	go func() {
		for id := range docs {
			jobs <- id
		}
		close(jobs)
	}()
	go func() {
		wg.Wait()
		close(results)
	}()
	var out []Result
	for r := range results {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

func TestProcess(t *testing.T) {
	docs := []string{"one two", "three", "four five six", "", "seven eight"}
	got := Process(docs, 3)
	want := []int{2, 1, 3, 0, 2}
	if len(got) != len(want) {
		t.Fatalf("got %d results", len(got))
	}
	for i, r := range got {
		if r.Words != want[i] {
			t.Errorf("doc %d: %d words, want %d", i, r.Words, want[i])
		}
	}
}
