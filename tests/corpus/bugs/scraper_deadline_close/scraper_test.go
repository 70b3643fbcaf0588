// A scraper fans out one goroutine per target; each pushes its page into a
// generic Results[T] queue. Instead of waiting for the fetchers, a deadline
// goroutine closes the queue after 50 ms so that the reader's range loop ends
// "even if a fetcher hangs".
//
// Expected: send-on-closed, predicted, at the send in Push. In the normal run
// the fetchers answer at once and the close comes 50 ms later. The sleep does
// not order anything: in the schedule where the deadline fires before a
// fetcher pushes, that fetcher sends on the closed channel.
package scraper

import (
	"strings"
	"sync"
	"testing"
	"time"
)

type Results[T any] struct{ ch chan T }

func NewResults[T any](n int) *Results[T] { return &Results[T]{ch: make(chan T, n)} }

func (r *Results[T]) Push(v T) {
	r.ch <- v // want: send-on-closed predicted
}

func (r *Results[T]) Close() { close(r.ch) }

type Page struct {
	URL   string
	Title string
}

func fetch(url string) Page {
	return Page{URL: url, Title: strings.ToUpper(strings.TrimPrefix(url, "https://"))}
}

func Scrape(urls []string, deadline time.Duration) []Page {
	res := NewResults[Page](len(urls))
	var fetchers sync.WaitGroup
	for _, u := range urls {
		fetchers.Add(1)
		go func() {
			defer fetchers.Done()
			res.Push(fetch(u))
		}()
	}
	go func() {
		time.Sleep(deadline)
		res.Close()
	}()
	var pages []Page
	for p := range res.ch {
		pages = append(pages, p)
	}
	fetchers.Wait()
	return pages
}

func TestScrape(t *testing.T) {
	urls := []string{"https://a.example", "https://b.example", "https://c.example"}
	pages := Scrape(urls, 50*time.Millisecond)
	if len(pages) != len(urls) {
		t.Fatalf("got %d pages, want %d", len(pages), len(urls))
	}
}
