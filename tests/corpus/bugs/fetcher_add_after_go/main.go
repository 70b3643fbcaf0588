// A feed fetcher starts one goroutine per feed and only then calls wg.Add(1)
// for it. Each fetch takes about 50 ms (simulated network) before it calls
// Done, so in practice the Add always comes first.
//
// Expected: negative-waitgroup, predicted, at the Done in fetch. Nothing but
// timing orders main's Add after the go statement before the goroutine's Done:
// in the schedule where a fetch finishes before main's Add for it, Done takes
// the counter below zero.
package main

import (
	"fmt"
	"sync"
	"time"
)

type Feed struct {
	URL   string
	Items int
}

type Fetcher struct {
	mu    sync.Mutex
	feeds []Feed
}

func (f *Fetcher) fetch(url string, wg *sync.WaitGroup) {
	time.Sleep(50 * time.Millisecond) // network round trip
	f.mu.Lock()
	f.feeds = append(f.feeds, Feed{URL: url, Items: len(url) % 7})
	f.mu.Unlock()
	wg.Done() // want: negative-waitgroup predicted
}

func main() {
	urls := []string{"https://go.dev/blog/feed.atom", "https://example.org/rss", "https://news.example/feed"}
	f := &Fetcher{}
	var wg sync.WaitGroup
	for _, u := range urls {
		go f.fetch(u, &wg)
		wg.Add(1)
	}
	wg.Wait()
	fmt.Println("fetched", len(f.feeds), "feeds")
}
