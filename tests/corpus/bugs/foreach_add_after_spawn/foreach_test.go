// A generic ForEach helper runs fn on every item in its own goroutine. It
// starts all goroutines and only then adds len(items) to the WaitGroup. The
// thumbnail test's fn takes about 50 ms per image, so Add always comes first.
//
// Expected: negative-waitgroup, predicted, at the Done in ForEach's goroutine.
// A goroutine that finishes before the Add (nothing but timing prevents it)
// takes the counter below zero.
package foreach

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func ForEach[T any](items []T, fn func(T)) {
	var wg sync.WaitGroup
	for _, it := range items {
		go func() {
			fn(it)
			wg.Done() // want: negative-waitgroup predicted
		}()
	}
	wg.Add(len(items))
	wg.Wait()
}

type Image struct {
	Name   string
	Width  int
	Height int
}

func TestThumbnails(t *testing.T) {
	imgs := []Image{{"a.png", 800, 600}, {"b.png", 1024, 768}, {"c.png", 640, 480}}
	var pixels atomic.Int64
	ForEach(imgs, func(im Image) {
		time.Sleep(50 * time.Millisecond) // resize
		pixels.Add(int64(im.Width/8) * int64(im.Height/8))
	})
	if pixels.Load() == 0 {
		t.Fatal("no thumbnails")
	}
}
