// A buffered channel as a counting semaphore: at most three downloads run at
// once. Each goroutine acquires a slot (send) before working and releases it
// (receive) after; every acquire is matched by a release, so the semaphore
// never stays full, and main waits for all goroutines. Expected: no findings.
package main

import (
	"fmt"
	"sync"
	"sync/atomic"
)

func main() {
	sem := make(chan struct{}, 3)
	var wg sync.WaitGroup
	var running, peak, bytes atomic.Int64
	files := []string{"a.iso", "b.tar", "c.zip", "d.img", "e.deb", "f.rpm", "g.apk"}
	for _, f := range files {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			n := running.Add(1)
			for {
				p := peak.Load()
				if n <= p || peak.CompareAndSwap(p, n) {
					break
				}
			}
			bytes.Add(int64(len(f) * 1024))
			running.Add(-1)
		}()
	}
	wg.Wait()
	fmt.Printf("downloaded %d bytes, at most %d at once\n", bytes.Load(), peak.Load())
}
