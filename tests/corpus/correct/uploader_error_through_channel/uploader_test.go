// An uploader test, done right: each part of a file is uploaded by its own
// goroutine, which sends its error (nil here) on a channel; the test's own
// goroutine receives every result and is the one that would call t.Fatalf.
//
// Nothing is wrong: the goroutines call no method of t, and the test's
// goroutine calls t.Logf itself after it has received every result. gordian
// must report nothing.
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
	s.mu.Lock()
	defer s.mu.Unlock()
	s.parts[i] = data
	return nil
}

func TestUploadParts(t *testing.T) {
	s := &store{parts: map[int]string{}}
	errs := make(chan error, 3)
	for i := 0; i < 3; i++ {
		go func(i int) {
			errs <- s.put(i, fmt.Sprintf("chunk-%d", i))
		}(i)
	}
	for i := 0; i < 3; i++ {
		if err := <-errs; err != nil {
			t.Fatalf("upload: %v", err)
		}
	}
	t.Logf("assembled %d parts", len(s.parts))
}
