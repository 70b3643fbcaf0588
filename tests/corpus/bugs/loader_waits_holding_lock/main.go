// A read-through cache loads a missing key in a loader goroutine and waits for
// its result while still holding the cache lock. The loader records the miss
// in the cache's stats before it answers, which needs the same lock. main runs
// the request in a goroutine, waits 100 ms for it and gives up.
//
// Expected: mixed-deadlock, occurred, at Get's receive of the loaded value and
// at the loader's Lock. Get holds the lock for the whole wait, so the loader
// can never take it and never sends, in every run. (Both stuck goroutines are
// also leaked goroutines; the mixed-deadlock wants cover them.)
package main

import (
	"fmt"
	"strings"
	"sync"
	"time"
)

type Cache struct {
	mu     sync.Mutex
	data   map[string]string
	misses int
}

func (c *Cache) load(key string, result chan<- string) {
	c.mu.Lock() // want: mixed-deadlock occurred
	c.misses++
	c.mu.Unlock()
	result <- strings.ToUpper(key)
}

func (c *Cache) Get(key string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if v, ok := c.data[key]; ok {
		return v
	}
	result := make(chan string)
	go c.load(key, result)
	v := <-result // want: mixed-deadlock occurred
	c.data[key] = v
	return v
}

func main() {
	c := &Cache{data: map[string]string{"greeting": "hello"}}
	fmt.Println(c.Get("greeting"))

	answer := make(chan string, 1)
	go func() { answer <- c.Get("farewell") }()
	select {
	case v := <-answer:
		fmt.Println(v)
	case <-time.After(100 * time.Millisecond):
		fmt.Println("request timed out")
	}
}
