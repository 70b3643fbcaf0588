// Fan-in: Merge forwards every value of several input channels to one output
// channel, with one forwarding goroutine per input and a closer goroutine that
// closes the output after all forwarders are done (wg.Wait). Producers close
// their own channels. The output is closed exactly once, after the last send,
// in every schedule. Expected: no findings.
package fanin

import (
	"sync"
	"testing"
)

func Merge[T any](inputs ...<-chan T) <-chan T {
	out := make(chan T)
	var wg sync.WaitGroup
	wg.Add(len(inputs))
	for _, in := range inputs {
		go func() {
			defer wg.Done()
			for v := range in {
				out <- v
			}
		}()
	}
	go func() {
		wg.Wait()
		close(out)
	}()
	return out
}

func producer(prefix string, n int) <-chan string {
	ch := make(chan string)
	go func() {
		defer close(ch)
		for i := 0; i < n; i++ {
			ch <- prefix + string(rune('a'+i))
		}
	}()
	return ch
}

func TestMerge(t *testing.T) {
	count := map[byte]int{}
	for v := range Merge(producer("x", 3), producer("y", 2), producer("z", 4)) {
		count[v[0]]++
	}
	if count['x'] != 3 || count['y'] != 2 || count['z'] != 4 {
		t.Fatalf("got %v", count)
	}
}
