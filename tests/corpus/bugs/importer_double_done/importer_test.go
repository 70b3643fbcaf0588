// A CSV importer hands a batch of rows to one background goroutine and uses a
// WaitGroup with one count per row. The goroutine marks a row done when it
// rejects it, but then falls through (no continue) and marks it done a second
// time after the store step.
//
// Expected: negative-waitgroup, occurred, at the Done after store. One worker
// processes the rows in order, so the counter reaches zero one row early and
// the last row's final Done takes it to -1, in every run. Close waits for the
// worker to exit before it calls Wait, so the test cannot end before that Done
// and no Wait is woken in between.
package importer

import (
	"strconv"
	"strings"
	"sync"
	"testing"
)

type Importer struct {
	wg       sync.WaitGroup
	mu       sync.Mutex
	stored   []int
	rejected int
	exited   chan struct{}
}

func (im *Importer) Import(rows []string) {
	im.wg.Add(len(rows))
	im.exited = make(chan struct{})
	go func() {
		for _, row := range rows {
			n, err := strconv.Atoi(strings.TrimSpace(row))
			if err != nil {
				im.mu.Lock()
				im.rejected++
				im.mu.Unlock()
				im.wg.Done() // row handled
			}
			im.store(n)
			im.wg.Done() // want: negative-waitgroup occurred
		}
		close(im.exited)
	}()
}

func (im *Importer) Close() {
	<-im.exited
	im.wg.Wait()
}

func (im *Importer) store(n int) {
	im.mu.Lock()
	im.stored = append(im.stored, n)
	im.mu.Unlock()
}

func TestImportSkipsBadRows(t *testing.T) {
	im := &Importer{}
	im.Import([]string{"10", " 20", "n/a", "40"})
	im.Close()
	if im.rejected != 1 {
		t.Errorf("rejected = %d", im.rejected)
	}
}
