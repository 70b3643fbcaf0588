// Two fetches report failure through one shared err variable captured by
// both closures (a hand-made errgroup without the group). The two
// assignments are unordered writes.
// Expected: data-race occurred at the assignment to err.
package fetch

import (
	"errors"
	"sync"
	"testing"
)

func fetch(url string) error {
	if url == "" {
		return errors.New("empty url")
	}
	return nil
}

func TestFetchBoth(t *testing.T) {
	var err error
	var wg sync.WaitGroup
	for _, u := range []string{"a", ""} {
		wg.Add(1)
		go func(u string) {
			defer wg.Done()
			if e := fetch(u); e != nil || u != "" {
				err = e // want: data-race occurred
			}
		}(u)
	}
	wg.Wait()
	_ = err
}
