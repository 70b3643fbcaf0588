// TestValue fails in every run on a value check that has nothing to do
// with concurrency: gordian fuzz reports it once for the campaign, not
// once per run, with the check's message.
package valuecheck

import "testing"

func sum(xs []int) int {
	s := 0
	for _, x := range xs[1:] {
		s += x
	}
	return s
}

func TestValue(t *testing.T) {
	results := make(chan int)
	go func() { results <- sum([]int{1, 2, 3}) }()
	if got := <-results; got != 6 {
		t.Fatalf("sum = %d, want 6", got)
	}
}
