// An uploader adds one WaitGroup count per file, but skips empty files without
// calling Done. A closer goroutine waits for the group and then closes the
// results channel; main reads results until the channel is closed or a 100 ms
// progress timeout fires. The closer never gets past Wait.
//
// Expected: goroutine-leak, occurred, waitgroup, at the closer's wg.Wait. main
// returns after its timeout, long after the uploads are done, and the closer
// is still waiting.
package main

import (
	"fmt"
	"sync"
	"time"
)

type File struct {
	Name string
	Data []byte
}

func upload(f File) string { return fmt.Sprintf("%s: %d bytes", f.Name, len(f.Data)) }

func main() {
	files := []File{{"a.txt", []byte("alpha")}, {"empty.txt", nil}, {"b.txt", []byte("bravo!")}}
	results := make(chan string, len(files))
	var wg sync.WaitGroup
	wg.Add(len(files))
	for _, f := range files {
		if len(f.Data) == 0 {
			continue // BUG: no wg.Done for the skipped file
		}
		go func() {
			defer wg.Done()
			results <- upload(f)
		}()
	}
	go func() {
		wg.Wait() // want: goroutine-leak occurred waitgroup
		close(results)
	}()

	for {
		select {
		case r, ok := <-results:
			if !ok {
				return
			}
			fmt.Println("uploaded", r)
		case <-time.After(100 * time.Millisecond):
			fmt.Println("no progress, giving up")
			return
		}
	}
}
