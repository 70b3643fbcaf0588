// Two index builders split a document set between them. Each one closes the
// shared `ready` channel when it has finished its half, meaning "the index is
// ready": correct for one builder, wrong for two. main waits on `ready` for the
// first half and on a WaitGroup for both.
//
// Expected: close-of-closed, occurred, at the close in build. Both builders
// always reach the close; whichever comes second panics (both are the same
// line). The WaitGroup's Done comes after the close, so main cannot exit before
// the second close.
package main

import (
	"fmt"
	"strings"
	"sync"
)

type Index struct {
	mu    sync.Mutex
	terms map[string][]int
	ready chan struct{}
}

func (ix *Index) build(docs []string, offset int, wg *sync.WaitGroup) {
	for i, d := range docs {
		for _, w := range strings.Fields(d) {
			ix.mu.Lock()
			ix.terms[w] = append(ix.terms[w], offset+i)
			ix.mu.Unlock()
		}
	}
	close(ix.ready) // want: close-of-closed occurred
	wg.Done()
}

func main() {
	docs := []string{"go channels", "go mutex", "select loop", "channels close"}
	ix := &Index{terms: map[string][]int{}, ready: make(chan struct{})}
	var wg sync.WaitGroup
	wg.Add(2)
	go ix.build(docs[:2], 0, &wg)
	go ix.build(docs[2:], 2, &wg)

	<-ix.ready
	fmt.Println("index ready")
	wg.Wait()
	ix.mu.Lock()
	fmt.Println("channels ->", ix.terms["channels"])
	ix.mu.Unlock()
}
