// A cache whose Put writes a plain map without a lock. Two loaders fill
// different keys at the same time; Go maps are not safe for concurrent
// writes even to different keys (the race detector sees two writes to the
// map inside runtime.mapassign, called from the same line of Put).
// Expected: data-race occurred at the map assignment.
package cache

import (
	"strconv"
	"sync"
	"testing"
)

type Cache struct {
	m map[string]string
}

func (c *Cache) Put(k, v string) {
	c.m[k] = v // want: data-race occurred
}

func TestLoadersFillCache(t *testing.T) {
	c := &Cache{m: map[string]string{}}
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			c.Put("k"+strconv.Itoa(i), "v")
		}(i)
	}
	wg.Wait()
	if len(c.m) == 0 {
		t.Fatal("empty cache")
	}
}
