// A correct test with a little concurrency: scripts/abuse fuzzes it with
// hostile flags and corpus files, where a bug it found would write its
// schedule into the module (which the cases must leave untouched).
package quiet

import "testing"

func TestHandOff(t *testing.T) {
	done := make(chan int)
	go func() { done <- 1 }()
	if <-done != 1 {
		t.Fatal("wrong value")
	}
}
