// An uploader test: each part of a file is uploaded by its own goroutine
// through a helper, mustPut, that stops "the test" with tb.Fatalf when an
// upload fails. The fake store rejects part 2. Fatalf calls runtime.Goexit,
// which ends the goroutine that calls it, not the test: the test goes on
// past the failure it was meant to stop at, and logs the assembled file as
// if it were whole. (go vet's testinggoroutine check does not follow the
// call through the testing.TB interface; the run shows it.)
//
// Expected: failnow-outside-test, occurred, at the tb.Fatalf. The test waits
// for the goroutines (their deferred Done runs at Goexit too), so the call
// is ordered before the test's end: no testing-after-end.
package uploader

import (
	"fmt"
	"sync"
	"testing"
)

type store struct {
	mu    sync.Mutex
	parts map[int]string
}

func (s *store) put(i int, data string) error {
	if i == 2 {
		return fmt.Errorf("part %d: quota exceeded", i)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.parts[i] = data
	return nil
}

func mustPut(tb testing.TB, s *store, i int, data string) {
	if err := s.put(i, data); err != nil {
		tb.Fatalf("upload: %v", err) // want: failnow-outside-test occurred
	}
}

func TestUploadParts(t *testing.T) {
	s := &store{parts: map[int]string{}}
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			mustPut(t, s, i, fmt.Sprintf("chunk-%d", i))
		}(i)
	}
	wg.Wait()
	t.Logf("assembled %d parts", len(s.parts))
}
