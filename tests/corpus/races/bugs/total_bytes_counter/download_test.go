// A package-level byte counter that every download adds to with +=. The
// downloads run in parallel goroutines; the sum is a read-modify-write that
// nothing makes atomic.
// Expected: data-race occurred at the +=.
package download

import (
	"sync"
	"testing"
)

var totalBytes int64

func download(size int64) {
	totalBytes += size // want: data-race occurred
}

func TestParallelDownloads(t *testing.T) {
	var wg sync.WaitGroup
	for _, size := range []int64{100, 250} {
		wg.Add(1)
		go func(n int64) {
			defer wg.Done()
			download(n)
		}(size)
	}
	wg.Wait()
}
