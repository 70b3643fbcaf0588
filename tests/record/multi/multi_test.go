// A second test package, so that `record test ./leaktest ./multi` writes
// two traces. The trace must contain: one test (TestMulti) with a
// WaitGroup wait at @wait that completes.
package multi

import (
	"sync"
	"testing"
)

func TestMulti(t *testing.T) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { wg.Done() }()
	wg.Wait() //@wait
}
